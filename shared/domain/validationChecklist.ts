import { EVIDENCE_STRENGTH, type Classification, type EvidenceKind } from './enums';
import { screenContent } from './injection';
import { isAuthorized, type Clearance } from './usable';

/**
 * The validation checklist a revision passes on its way to VALIDATED (DESIGN §3.1). Pure: the
 * service layer supplies what needs I/O (the recomputed hash, the number of traced sources), so the
 * rule itself is testable one check at a time and the same function backs the dry run and the
 * real transition.
 */

export const VALIDATION_CHECKS = [
  'provenance_present',
  'hash_matches',
  'timestamp_valid',
  'source_version_present',
  'applicability_present',
  'acl_visible',
  'content_parsed',
  'no_injection_markers',
] as const;
export type ValidationCheckId = (typeof VALIDATION_CHECKS)[number];

export interface CheckResult {
  id: ValidationCheckId;
  passed: boolean;
  detail: string;
}

export interface ChecklistInput {
  kind: EvidenceKind;
  content: string;
  mediaType: string;
  /** The hash stored with the revision when it was written. */
  contentSha256: string;
  /** SHA-256 of the content as stored now, computed by the caller (shared/ has no crypto). */
  computedSha256: string;
  sourceType: string;
  sourceRef: string;
  producer: string;
  sourceVersion: string | null;
  observedAt: string | null;
  appliesTo: readonly string[];
  tenant: string;
  classification: Classification;
  /** Original sources the revision traces to through PROV, as the validating actor sees them. */
  tracedSources: number;
}

export interface ChecklistEnv {
  clearance: Clearance;
  /** ISO-8601 instant of the check. */
  now: string;
}

const blank = (s: string | null | undefined): boolean => s === null || s === undefined || s.trim() === '';
const short = (sha: string): string => `${sha.slice(0, 12)}…`;

function provenancePresent(e: ChecklistInput): CheckResult {
  const missing = (['sourceType', 'sourceRef', 'producer'] as const).filter((k) => blank(e[k]));
  if (missing.length) return fail('provenance_present', `missing ${missing.join(', ')}`);
  // A producer is not a source (DESIGN §3.2): derived evidence must trace to something it was made from.
  if (EVIDENCE_STRENGTH[e.kind] === 'derived' && e.tracedSources === 0) {
    return fail('provenance_present', `${e.kind} is derived evidence and traces to no original source; record wasDerivedFrom or used edges with prov:record`);
  }
  const traced = EVIDENCE_STRENGTH[e.kind] === 'derived' ? `; traces to ${e.tracedSources} original source(s)` : '';
  return pass('provenance_present', `source ${e.sourceType} ${e.sourceRef}, produced by ${e.producer}${traced}`);
}

function hashMatches(e: ChecklistInput): CheckResult {
  return e.computedSha256 === e.contentSha256
    ? pass('hash_matches', `content SHA-256 ${short(e.computedSha256)} matches the stored hash`)
    : fail('hash_matches', `content hashes to ${short(e.computedSha256)} but the stored hash is ${short(e.contentSha256)}`);
}

function timestampValid(e: ChecklistInput, now: number): CheckResult {
  if (blank(e.observedAt)) return fail('timestamp_valid', 'observed_at is missing');
  const at = Date.parse(e.observedAt!);
  if (Number.isNaN(at)) return fail('timestamp_valid', `observed_at ${e.observedAt} is not a timestamp`);
  // An observation from the future is a clock error or a forgery; either way it cannot be validated.
  if (at > now) return fail('timestamp_valid', `observed_at ${e.observedAt} is in the future`);
  return pass('timestamp_valid', `observed at ${e.observedAt}`);
}

function sourceVersionPresent(e: ChecklistInput): CheckResult {
  return blank(e.sourceVersion)
    ? fail('source_version_present', 'source_version is missing; record which version of the source was observed')
    : pass('source_version_present', `source version ${e.sourceVersion}`);
}

function applicabilityPresent(e: ChecklistInput): CheckResult {
  const scope = e.appliesTo.filter((a) => !blank(a));
  return scope.length === 0
    ? fail('applicability_present', 'applies_to is empty; name the assets or accounts it applies to (or * for any)')
    : pass('applicability_present', `applies to ${scope.join(', ')}`);
}

function aclVisible(e: ChecklistInput, clearance: Clearance): CheckResult {
  return isAuthorized(clearance, e)
    ? pass('acl_visible', `tenant ${e.tenant} at ${e.classification} is within the validator's clearance`)
    : fail('acl_visible', "outside the validator's clearance");
}

// Lone surrogates cannot be encoded as UTF-8; U+FFFD is what a lossy decoder leaves behind; NUL
// means binary content was pasted as text. Any of them means we are not looking at the real text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isJson = (mediaType: string): boolean => /^application\/(?:[\w.-]+\+)?json\b/i.test(mediaType.trim());

function contentParsed(e: ChecklistInput): CheckResult {
  if (e.content.trim() === '') return fail('content_parsed', 'content is empty');
  if (LONE_SURROGATE.test(e.content)) return fail('content_parsed', 'content is not valid UTF-8 text (lone surrogate)');
  if (e.content.includes('\uFFFD')) return fail('content_parsed', 'content contains U+FFFD: it was decoded from invalid UTF-8');
  if (e.content.includes('\u0000')) return fail('content_parsed', 'content contains NUL: it is binary, not text');
  if (isJson(e.mediaType)) {
    try {
      JSON.parse(e.content);
    } catch (err) {
      return fail('content_parsed', `media type ${e.mediaType} but the content does not parse as JSON (${(err as Error).message})`);
    }
    return pass('content_parsed', 'parsed as JSON');
  }
  return pass('content_parsed', `${e.content.length} characters of ${e.mediaType}`);
}

/** The same screening as ingest: what quarantines there fails here, and notices are shown, not held against it. */
function noInjectionMarkers(e: ChecklistInput): CheckResult {
  const screening = screenContent(e.content);
  if (screening.flagged) return fail('no_injection_markers', screening.matches.map((m) => `${m.patternId}: ${m.reason}`).join('; '));
  const shown = screening.notices.map((n) => `${n.patternId}: ${n.reason} «${n.excerpt}»`);
  return pass('no_injection_markers', ['no instruction-like content found', ...shown].join('; notice: '));
}

export function runChecklist(e: ChecklistInput, env: ChecklistEnv): CheckResult[] {
  const now = Date.parse(env.now);
  if (Number.isNaN(now)) throw new RangeError(`runChecklist: now is not an ISO-8601 timestamp: ${JSON.stringify(env.now)}`);
  return [
    provenancePresent(e),
    hashMatches(e),
    timestampValid(e, now),
    sourceVersionPresent(e),
    applicabilityPresent(e),
    aclVisible(e, env.clearance),
    contentParsed(e),
    noInjectionMarkers(e),
  ];
}

export const failedChecks = (checks: readonly CheckResult[]): CheckResult[] => checks.filter((c) => !c.passed);

function pass(id: ValidationCheckId, detail: string): CheckResult {
  return { id, passed: true, detail };
}
function fail(id: ValidationCheckId, detail: string): CheckResult {
  return { id, passed: false, detail };
}
