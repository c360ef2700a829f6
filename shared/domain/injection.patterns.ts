/**
 * Textual prompt-injection patterns, matched against normalised content (see injection.ts).
 *
 * Evidence is full of words like "ignore", "admin", "prompt", "validated" used in a data sense
 * (auth logs, EDR command lines, analyst notes), so almost every pattern needs two things at once:
 * a directive shape (imperative verb, addressed to the reader) and a target that only makes sense
 * for the workbench or an AI (instructions, verification, lifecycle state, a privileged tool).
 * Past-tense and descriptive forms ("ignored", "attempted to disable", "could act as") are left
 * alone on purpose. A false positive costs a reviewer one release from quarantine; a false negative
 * lets content steer a review, so when a phrase is directive and on-target we flag it even if a rare
 * legitimate note could say the same.
 *
 * When adding a pattern: add a malicious sample AND a benign look-alike to injection.corpus.ts.
 */

export interface TextPattern {
  id: string;
  reason: string;
  regex: RegExp;
}

/**
 * Where an imperative can start: sentence/field start, after an explicit directive word, or after
 * the reader is told they are authorised or instructed to act ("I authorize you to", "you are
 * hereby permitted to", "the reviewer is instructed to").
 */
const DIRECTIVE = String.raw`(?:^|[.!?:;,\n>"'(\[\]]\s*|\b(?:please|now|immediately|then|must|should|shall|you\s+(?:will|must|should|shall|need\s+to|have\s+to|are\s+to))\s+|\b(?:authori[sz](?:e|es|ed)|instruct(?:s|ed)?|order(?:s|ed)?|command(?:s|ed)?|direct(?:s|ed)?|require[sd]?|permit(?:s|ted)?|allow(?:s|ed)?|empower(?:s|ed)?|ask(?:s|ed)?|tell|tells|told)\s+you\s+to\s+|\b(?:you|(?:the\s+)?(?:reviewers?|approvers?|workbench|assistant|agent|model|ai|bot|validator))\s+(?:is|are|has\s+been|have\s+been)\s+(?:hereby\s+|now\s+)?(?:authori[sz]ed|instructed|ordered|required|permitted|allowed|cleared|empowered|asked|told|directed)\s+to\s+)`;

/** Excludes descriptions of what someone else did or could do ("attempted to disable", "could act as"). */
const NOT_DESCRIBED = String.raw`(?<!\b(?:attempt(?:ed|s|ing)?|tried|tries|trying|used|uses|able|unable|designed|configured|failed|fails|allow(?:s|ed)?)\s+to\s+)(?<!\b(?:would|could|might|did|does|can|cannot|not|never|may)\s+)`;

const WORDS = (max: number): string => String.raw`(?:[\w'-]+\s+){0,${max}}?`;

const PRIVILEGED = String.raw`(?:admin\w*|root|superuser|elevated|privileged|sudo|domain\s+admins?|highest|full)`;

const TRUSTED_STATE = String.raw`(?:validated|verified|trusted|approved|authoritative|confirmed|true|genuine|legitimate|clean|safe|benign|supported|reliable|ground\s+truth|fact|high\s+confidence|not\s+malicious|false\s+positives?)`;

/**
 * The workbench's own records: what a role-play or authority injection wants approved, validated,
 * closed or deleted. Instructions about things in the world ("disable the account", "close the
 * incident", "escalate to the on-call engineer") are ordinary analyst text and stay out of this.
 */
const RECORD = String.raw`(?:evidence(?!\s+(?:bags?|lockers?|rooms?|tapes?|seals?|storage|envelopes?|boxes|custodians?)\b)|claims?|decisions?|revisions?|disputes?|remediations?|receipts?|verdicts?|audit\s+(?:logs?|trail|chain|receipts?|records?|entries|history))`;
/** Workbench ids as they appear in case text: ev-12@3, dec-1, claim-7, rem-4, disp-9. */
const RECORD_ID = String.raw`(?:(?:ev|dec|claim|rem|disp)-[\w-]*\d[\w-]*(?:@\d+)?)`;
/** Lifecycle and verdict states a record can be moved to. */
const RECORD_STATE = String.raw`(?:validated|verified|trusted|approved|authoritative|confirmed|supported|refuted|revoked|quarantined|superseded|disputed|released|accepted|rejected|closed|resolved|genuine|legitimate)`;
const QUANTIFIER = String.raw`(?:all|every|each|this|these|those|the|any|that|its|their|our|my|your|pending|open|remaining|other|existing|outstanding|current|related|linked|listed|following|above|below|contradicting|refuting|conflicting|attached|new)`;

/** Labels of a chat turn or an authority a fake header claims to speak as. */
const ROLE_LABEL = String.raw`(?:system|sys|admin(?:istrator)?|sysadmin|superuser|root|developer|assistant|ai|model|gpt|chatgpt|claude|supervisor|orchestrator|reviewers?|approvers?|(?:case|workbench|platform|security|it)\s+(?:admin(?:istrator)?|owner|team))(?:\s+(?:message|prompt|override|notice|instructions?|note|directive|alert))?`;
/** Modes that only make sense for a model or a session, never for a device or a document. */
const PRIVILEGED_MODE = String.raw`(?:admin(?:istrator|istrative)?|developer|dev|god|root|sudo|superuser|unrestricted|unfiltered|uncensored|jailbreak|jailbroken|dan|evil|override|no-?limits?)\s+mode`;

function re(source: string, flags = 'iu'): RegExp {
  return new RegExp(source, flags);
}

export const TEXT_PATTERNS: readonly TextPattern[] = [
  {
    id: 'ignore-instructions',
    reason: 'tells the reader to ignore or override earlier instructions',
    regex: re(
      [
        String.raw`\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|every|each|of|the|your|my|these|those)\s+){0,3}(?:previous|prior|above|earlier|preceding|former|foregoing|other|existing|original|initial|system|safety|hidden|old|given)\s+${WORDS(2)}(?:instructions?|directives?|prompts?|rules|guidelines|guidance|commands|context|constraints|policies|messages|orders)\b`,
        String.raw`\b(?:ignore|disregard|forget)\s+(?:all|any|every)\s+(?:of\s+)?(?:the\s+|your\s+)?(?:instructions|rules|guidelines|directives|prompts)\b`,
        String.raw`\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:you\s+(?:were|have\s+been)\s+told|(?:said|written|stated)\s+(?:above|before|earlier))`,
        // "disregard for rules" is the noun ("a disregard for rules"); the verb takes its object directly.
        String.raw`\bdisregard\s+(?!for\b)${WORDS(4)}(?:instructions?|rules|guidelines|directives|policies|safeguards|guardrails)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'ignore-instructions-i18n',
    reason: 'tells the reader to ignore earlier instructions (non-English)',
    regex: re(
      [
        // de
        String.raw`\b(?:ignorier(?:e|en|t)?|vergiss|vergessen\s+sie)\s+(?:\S+\s+){0,3}?(?:vorherigen|vorigen|bisherigen|obigen|früheren)\s+(?:anweisungen|instruktionen|befehle|regeln)`,
        // fr
        String.raw`\b(?:ignore[rz]?|oublie[rz]?)\s+(?:\S+\s+){0,3}?(?:instructions|consignes|règles|directives)\s+(?:précédentes|antérieures|ci-dessus)`,
        // es / pt
        String.raw`\b(?:ignora|ignore|olvida|esquece|esqueça)\s+(?:\S+\s+){0,3}?(?:instrucciones|instruções|reglas|regras|indicaciones)\s+(?:anteriores|previas|prévias)`,
        // ru
        String.raw`(?:проигнорируй|игнорируй|забудь)(?:те)?\s+(?:\S+\s+){0,2}?(?:предыдущие|прошлые|предшествующие|прежние|все)\s+(?:\S+\s+)?(?:инструкции|указания|правила|команды)`,
        // zh
        String.raw`(?:忽略|无视|忽视|不要理会)(?:之前|以上|上面|先前|前面|所有|全部|的|一切){1,4}(?:指令|指示|说明|规则|提示)`,
        // ja
        String.raw`(?:以前|前|上記)の(?:すべての)?(?:指示|命令)を(?:無視|忘れ)`,
      ].join('|'),
    ),
  },
  {
    id: 'role-reassignment',
    reason: 'tries to give the reader a new role or persona',
    regex: re(
      [
        String.raw`\byou\s+are\s+now\s+(?:(?:an?|the|my|our)\s+${WORDS(2)}(?:assistant|ai|agent|model|bot|chatbot|persona|administrator|admin|root|superuser|reviewer|approver|analyst|dan|hacker)\b|(?:no\s+longer|free|unrestricted|jailbroken|dan|operating|acting)\b)`,
        String.raw`\bfrom\s+(?:now|here|this\s+point)\s+on(?:wards?)?,?\s+you\s+(?:are|will|must|shall|should|act|respond|only)\b`,
        String.raw`\byou(?:'re|\s+are)\s+(?:now\s+(?:in|operating\s+in|running\s+in|working\s+in|switched\s+to)\s+(?:an?\s+|the\s+)?${PRIVILEGED_MODE}|in\s+(?:an?\s+|the\s+)?${PRIVILEGED_MODE}\s+now)\b`,
        String.raw`\byou(?:'re|\s+are)\s+no\s+longer\s+(?:bound|restricted|limited|constrained|governed)\s+by\b`,
        String.raw`\byour\s+new\s+(?:role|persona|identity|instructions?|task|objective|directive|orders|mission|purpose)\s+(?:is|are)\b`,
        String.raw`${DIRECTIVE}(?:role-?play|roleplay)\s+as\b`,
        String.raw`${DIRECTIVE}(?:play|assume|take\s+on|adopt)\s+the\s+(?:role|persona|identity|part)\s+of\s+(?:an?\s+|the\s+|your\s+)?${WORDS(2)}(?:admin\w*|root|superuser|sysadmin|system|developer|reviewer|approver|owner|ciso|dan|assistant|ai)\b`,
        String.raw`\bpretend\s+(?:that\s+)?you(?:'re|\s+are)\b`,
        String.raw`\b(?:act|behave)\s+as\s+(?:if|though)\s+you\b`,
        String.raw`${DIRECTIVE}(?:act|behave|respond|operate)\s+as\s+(?:an?|the|my|your)\s+${WORDS(2)}(?:admin\w*|root|superuser|assistant|ai|agent|reviewer|approver|developer|hacker|dan|owner)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'jailbreak-mode',
    reason: 'asks the reader to switch into an unrestricted or developer mode',
    regex: re(
      [
        String.raw`\b(?:jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored)\s+mode\b`,
        // A privileged mode as the reader's own state; "enable developer mode on the phone" is about a device.
        String.raw`\b${PRIVILEGED_MODE}\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|unlocked|engaged|on)\s+for\s+(?:you|yourself|this\s+(?:session|conversation|chat|assistant|model|agent))\b`,
      ].join('|'),
    ),
  },
  {
    id: 'system-prompt',
    reason: 'refers to the reader’s system prompt or hidden instructions',
    regex: re(
      [
        String.raw`\b(?:your|the\s+(?:real|original|hidden|actual))\s+(?:system|initial|hidden|original)\s+(?:prompt|instructions)\b`,
        String.raw`\b(?:reveal|print|show|output|repeat|leak|dump|display|disclose|ignore|override|replace|new|updated)\s+${WORDS(2)}system\s+prompt\b`,
        String.raw`\bsystem\s+prompt\s*[:=]`,
      ].join('|'),
    ),
  },
  {
    id: 'new-instructions',
    reason: 'announces new instructions for the reader',
    regex: re(
      [
        String.raw`\b(?:new|updated|revised|real|actual|true|override|secret)\s+(?:system\s+)?(?:instructions?|directives?|orders|task)\s*[:：—-]`,
        String.raw`\binstructions?\s+(?:for|to)\s+(?:the\s+)?(?:ai|assistant|agent|model|llm|bot|gpt|automated\s+reviewer)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'address-to-model',
    reason: 'addresses an AI model or automated reviewer directly',
    regex: re(
      [
        String.raw`\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|large\s+language\s+model|language\s+model|assistant|chatbot|automated\s+(?:system|reviewer|agent))\b`,
        String.raw`\b(?:dear|attention|note\s+to(?:\s+the)?|hey|hello|hi|to\s+the)\s+(?:ai|llm|assistant|chatbot|gpt|chatgpt|claude|copilot|gemini|automated\s+reviewer|ai\s+(?:reviewer|assistant|agent|model))\b`,
        String.raw`\b(?:ai|llm)\s+(?:agents?|assistants?|models?|reviewers?)\s+(?:reading|processing|summari[sz]ing|reviewing|analy[sz]ing)\s+this\b`,
        String.raw`(?:^|[\s>"'(])(?:ai|llm|assistant|chatbot)(?:\s+(?:reviewer|assistant|agent|model))?\s*:\s*\S`,
      ].join('|'),
    ),
  },
  {
    id: 'prompt-delimiters',
    reason: 'contains chat-template control tokens used to fake a system/user turn',
    regex: re(
      [
        String.raw`<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|>`,
        String.raw`\[\/?(?:INST|SYS)\]`,
        String.raw`<<\/?SYS>>`,
        String.raw`(?:^|\n)\s*#{2,}\s*(?:system|instruction|instructions|new\s+instructions)\s*:?\s*(?:\n|$)`,
        // A chat message serialised as JSON, as an injected fake turn.
        String.raw`"role"\s*:\s*"(?:system|developer|assistant)"\s*,\s*"content"\s*:`,
        // A banner claiming to start a privileged section: [SYSTEM OVERRIDE], ### ADMIN INSTRUCTIONS ###.
        String.raw`(?:^|\n)[\s>]*(?:[\[#*=<]{1,4}|-{3,})\s*(?:system|admin(?:istrator)?|developer|root|sudo)\s+(?:override|prompt|instructions?|directives?)\s*(?:[\]#*=>]{1,4}|-{3,}|:)`,
        String.raw`\b(?:begin|start)\s+(?:of\s+)?(?:the\s+)?(?:system|admin|developer|new)\s+(?:prompt|instructions?|override|directives?)\b`,
        // Pretending the data has ended and a privileged turn begins.
        String.raw`\bend\s+of\s+(?:the\s+)?(?:user\s+input|untrusted\s+(?:content|data|input)|document|evidence|data|log|file|input|context|transcript|report)\b[\s.\]#*=:>-]*(?:[\[<#*=]{1,4}\s*)?(?:system|admin(?:istrator)?|assistant|developer|new\s+instructions?)\s*[:\]>]`,
      ].join('|'),
    ),
  },
  {
    id: 'tool-invocation',
    reason: 'asks the reader to call a tool, function or privileged action',
    regex: re(
      [
        String.raw`${DIRECTIVE}(?:call|invoke|run|execute|trigger|use|launch|fire)\s+(?:the\s+|this\s+|your\s+|an?\s+)?${WORDS(2)}(?:admin\w*|privileged|elevated|root|sudo|internal|approval|approve|revoke|delete|deletion|shell|exec|export|management)\s+(?:[\w-]+\s+)?(?:tool|function|api|endpoint|action|command|plugin|capability)s?\b`,
        String.raw`\b(?:call|invoke|trigger|execute|run)\s+(?:the\s+)?[\x60'"]?[a-z][a-z0-9]*(?:_[a-z0-9]+)+[\x60'"]?\s*(?:\(|(?:tool|function|api|action|endpoint)\b)`,
        String.raw`"(?:tool_calls|function_call|tool_use)"\s*:`,
        String.raw`<\/?(?:tool_call|function_calls?|tool_use)\b`,
        String.raw`<\s*invoke\s+name\s*=`,
        String.raw`\x60{3}\s*(?:tool_code|tool_call|function_call)\b`,
        // A call shaped like an agent's tool call: {"name": "approve_decision", "arguments": …}, ReAct's Action/Action Input.
        String.raw`"(?:name|function|tool|tool_name)"\s*:\s*"[a-z][a-z0-9]*(?:_[a-z0-9]+)+"\s*,\s*"(?:arguments|parameters|args|input|tool_input)"\s*:`,
        String.raw`(?:^|\n)\s*Action\s*:\s*[\x60"']?[a-z][a-z0-9]*(?:_[a-z0-9]+)+[\x60"']?\s*\n\s*Action\s+Input\s*:`,
        // A function or channel of the workbench itself: approve_decision(…), workbench.approve(…), evidence:transition.
        String.raw`\b(?:approve|validate|revoke|release|close|delete|mark|escalate|finali[sz]e|override|transition)_(?:[a-z0-9]+_){0,2}?(?:decisions?|claims?|evidence|revisions?|disputes?|remediations?|receipts?|verdicts?|lifecycle)\w*\s*\(`,
        String.raw`\b(?:workbench|reviewer|assistant|agent|tools?)\.(?:approve|validate|revoke|release|mark|set_?(?:state|status|verdict)|transition|finali[sz]e|escalate)\w*\s*\(`,
        String.raw`\b(?:call|invoke|trigger|send|use|run)\s+(?:the\s+)?[\x60'"]?(?:evidence|claim|decision|case|audit|actor|remediation|dispute|review):[a-z][A-Za-z]+\b`,
      ].join('|'),
    ),
  },
  {
    id: 'privileged-action',
    reason: 'asks for a command to run with elevated rights or for rights to be granted',
    regex: re(
      [
        String.raw`${NOT_DESCRIBED}\b(?:execute|run|perform|launch)\s+(?:the\s+following|this|these|that|it|the\s+(?:command|script|commands)\s+below|(?:the\s+)?(?:command|script|payload))\s+${WORDS(3)}(?:as|with)\s+(?:an?\s+|the\s+)?${PRIVILEGED}\b`,
        String.raw`${NOT_DESCRIBED}\bgrant\s+(?:me|us|yourself|myself|this\s+(?:user|account|agent)|the\s+(?:agent|assistant|requester|sender))\s+(?:full\s+|local\s+|domain\s+|global\s+)?(?:admin\w*|root|superuser|elevated|privileged|owner)\s+(?:rights|access|privileges?|role|permissions?)\b`,
        String.raw`${NOT_DESCRIBED}\b(?:add|put)\s+(?:me|us|yourself|this\s+(?:user|account))\s+to\s+(?:the\s+)?(?:domain\s+admins|enterprise\s+admins|administrators|admins|sudoers|wheel)\b`,
        String.raw`${NOT_DESCRIBED}\b(?:escalate|elevate)\s+(?:my|your|its|our)\s+(?:privileges?|permissions|access|rights|role)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'skip-verification',
    reason: 'asks for verification, validation, review or audit to be skipped',
    regex: re(
      [
        String.raw`${NOT_DESCRIBED}\b(?:skip|bypass|disable|ignore|omit|avoid|circumvent|turn\s+off|switch\s+off|suspend|waive|override|short-?circuit)\s+${WORDS(3)}(?:verification|validation|review|reviews|reviewing|re-?validation|audit(?!\s+(?:log|logs|logging|policy|policies))|approval|approvals|checks?|checklist|screening|sign-?off|four-?eyes|quorum)\b`,
        String.raw`\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:re-?)?(?:verify|validate|review|check|audit|screen|flag|scan)\s+(?:this|it|these|the|any)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'suppress-evidence',
    reason: 'asks for contradicting evidence to be ignored',
    regex: re(
      String.raw`${NOT_DESCRIBED}\b(?:ignore|disregard|discard|exclude|drop|hide|suppress)\s+(?:(?:all|any|the|this|other)\s+)*(?:refuting|contradicting|conflicting|contrary|negative|other)\s+(?:evidence|findings|sources|data|results|revisions)\b`,
    ),
  },
  {
    id: 'mark-trusted',
    reason: 'asks for evidence or a claim to be marked as validated, trusted or approved',
    regex: re(
      [
        String.raw`\b(?:mark|flag|tag|label|classify|record|treat)\s+(?:this|it|these|them|the|all|that)\s+${WORDS(3)}as\s+(?:an?\s+)?${TRUSTED_STATE}\b`,
        String.raw`\b(?:set|change|update|move|promote|switch)\s+(?:the\s+|this\s+|its\s+|their\s+)?${WORDS(2)}(?:status|state|lifecycle|verdict|trust[\s_-]?tier|confidence|classification)(?:\s+of\s+(?:[\w@-]+\s+){1,3}?)?\s*(?:to|=|:)\s*['"]?(?:validated|verified|trusted|approved|authoritative|supported|confirmed|100\s*%?|1\.0|high)\b`,
        String.raw`${DIRECTIVE}(?:approve|auto-?approve|accept|sign\s+off\s+on)\s+(?:this|the|all|every)\s+${WORDS(2)}(?:claims?|decisions?|evidence|revisions?|remediations?|disputes?)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'workbench-directive',
    reason: 'tells the reader to approve, validate, close, delete or otherwise change the workbench’s own records',
    regex: re(
      [
        // "approve decision dec-1", "close all open disputes", "delete audit receipts 100-140".
        String.raw`${DIRECTIVE}${NOT_DESCRIBED}(?:approve|auto-?approve|re-?validate|validate|accept|sign\s+off\s+on|close|resolve|dismiss|reject|delete|purge|erase|wipe|revoke|release|withdraw|reopen|finali[sz]e|supersede|quarantine|escalate|de-?escalate|override|overrule)\s+(?:${QUANTIFIER}\s+){0,3}(?:[\w-]+\s+)?(?:${RECORD}|${RECORD_ID})\b`,
        // "mark all evidence VALIDATED", "move claim-7 to SUPPORTED": a record put in a state, with or without "as".
        String.raw`${NOT_DESCRIBED}\b(?:mark|flag|tag|label|set|treat|move|promote)\s+(?:${QUANTIFIER}\s+){0,2}(?:[\w-]+\s+)?(?:${RECORD}|${RECORD_ID})\s+(?:as\s+|to\s+|into\s+|=\s*)?(?:an?\s+)?${RECORD_STATE}\b`,
        // "all claims in this case must be marked VALIDATED": the same order in the passive.
        String.raw`(?:(?:this|the|all|every|each|these|those|any|other|remaining)\s+(?:[\w-]+\s+)?${RECORD}|${RECORD_ID})\s+${WORDS(4)}(?:must|should|shall|is\s+to|are\s+to|needs?\s+to|has\s+to|have\s+to)\s+(?:now\s+|immediately\s+|automatically\s+|simply\s+)?be\s+(?:(?:marked\s+(?:as\s+)?|treated\s+as\s+|considered\s+|set\s+to\s+|recorded\s+as\s+|flagged\s+as\s+|moved\s+to\s+|accepted\s+as\s+)(?:an?\s+)?${RECORD_STATE}|(?:validated|verified|trusted|approved|confirmed|accepted|closed|ignored|disregarded)(?!\s+(?:by|after|before|once|when|if|unless|only|within|per|under|following)\b))\b`,
      ].join('|'),
    ),
  },
  {
    id: 'role-header',
    reason: 'fakes a SYSTEM/ADMIN/assistant turn that addresses the reader',
    regex: re(
      // A role label at a line or sentence start ("SYSTEM:", "[ADMIN]", "<system>") followed, within
      // a few words, by something only a reader can be told: a new role or mode, new instructions.
      // The label alone is common in logs ("System: DC01", "Admin: jdoe") and is not enough.
      String.raw`(?:^|[\n\r]|[.!?;]\s+|["'({]\s*)[\s>*#=_-]*(?:[\[<(]{1,2}\s*${ROLE_LABEL}\s*[\]>)]{1,2}\s*:?|${ROLE_LABEL}\s*(?::|=>|--?)\s*)\s*${WORDS(3)}(?:you(?:'re|\s+are)\s+(?:now|no\s+longer)\b|you(?:'re|\s+are)\s+(?:the|an?|my|our)\s+(?:new\s+)?${WORDS(1)}(?:admin\w*|root|superuser|sysadmin|owner|developer|reviewer|approver|operator|authority)\b|you\s+(?:will|must|shall|should|may|can)\s+now\b|from\s+(?:now|here|this\s+point)\s+on\b|your\s+(?:new\s+)?(?:role|persona|identity|instructions?|task|orders|objective|directive|mission)\s+(?:is|are|:)|(?:new|updated|revised|override)\s+(?:instructions?|rules|directives?|orders)\b|${PRIVILEGED_MODE}\b|(?:ignore|disregard|forget)\s+(?:all|any|every|the|your|my|previous|prior|above|earlier|everything)\b)`,
    ),
  },
  {
    id: 'authority-claim',
    reason: 'claims an authority that instructs or authorises the reader to act',
    regex: re(
      [
        // "As the administrator I authorize you to …", "as your developer, we instruct the assistant to …".
        String.raw`\bas\s+(?:the|your|an?)\s+${WORDS(2)}(?:administrator|admin|sysadmin|superuser|root|owner|operator|developer|creator|supervisor|manager|lead|ciso|cio|reviewer|approver|authority)\b[^.\n]{0,40}?\b(?:i|we)\s+(?:hereby\s+|now\s+|officially\s+|formally\s+)?(?:authori[sz]e|instruct|order|direct|command|require|permit|allow|empower|tell|ask)\s+(?:you|the\s+(?:ai|assistant|agent|model|reviewer|workbench|system|bot))\b`,
        // "I authorize you to approve …" without the title: only for acts on the reader's own judgement.
        String.raw`\b(?:i|we)\s+(?:hereby\s+)?(?:authori[sz]e|instruct|order|command|direct|empower)\s+you\s+to\s+(?:ignore|disregard|bypass|skip|override|approve|auto-?approve|validate|mark|revoke|escalate)\b`,
      ].join('|'),
    ),
  },
  {
    id: 'active-html',
    reason: 'contains executable HTML or a script URL',
    regex: re(
      [
        String.raw`<\s*(?:script|iframe|frame|frameset|object|embed|applet|base)\b`,
        String.raw`<\s*meta\s[^>]{0,200}?http-equiv`,
        String.raw`\b(?:javascript|vbscript|livescript)\s*:`,
        String.raw`\bdata\s*:\s*text\/html`,
        String.raw`<[a-z][^>]{0,500}?\son[a-z]{3,20}\s*=`,
        String.raw`\bon(?:error|load|mouseover|focus|click|animationstart|pointerenter|toggle|begin)\s*=`,
      ].join('|'),
    ),
  },
  {
    id: 'hidden-html',
    reason: 'contains HTML styled to be invisible to a human reader',
    regex: re(
      [
        String.raw`<[a-z][^>]{0,500}?\bstyle\s*=\s*["']?[^"'>]{0,300}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*[;"'>]|opacity\s*:\s*0(?:\.0+)?\s*[;"'>]|(?:left|top|text-indent)\s*:\s*-\d{3,})`,
        String.raw`<(?:div|span|p|section|font|td)\b[^>]{0,300}?\shidden\b`,
      ].join('|'),
    ),
  },
  {
    id: 'markdown-exfiltration',
    reason: 'contains a markdown image or link that would send data to an external URL',
    regex: re(String.raw`!\[[^\]]{0,200}\]\(\s*https?:\/\/[^)\s?]{1,500}\?[^)\s]{0,500}?(?:\{|%7B|=\s*\$)`),
  },
];

/** Words that turn an HTML comment from markup noise into an instruction aimed at a reader. */
export const COMMENT_INSTRUCTION_WORDS = re(
  String.raw`\b(?:ai|llm|assistant|agent|model|gpt|claude|instructions?|ignore|disregard|system|prompt|approve|approval|reviewer|validated?|verified|trusted|tool|admin|mark|verdict)\b`,
);
