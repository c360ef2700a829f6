/** The edits a copy goes through on its way from one feed to another, for the labelled copy set (copyPairs.ts). */

export function shuffled<T>(xs: readonly T[], rng: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
// --- the edits a copy goes through ------------------------------------------------------------------

const FEEDS = ['vendor-feed', 'osint-digest', 'isac-bulletin', 'partner-share', 'soc-notes', 'threat-wire'];
const VENDORS = ['Mandiant', 'FireEye', 'a national CERT', 'the sector ISAC', 'an MSSP partner'];

export function header(rng: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const date = `2024-0${1 + Math.floor(rng() * 9)}-${10 + Math.floor(rng() * 18)}`;
  const feed = pick(FEEDS);
  return pick([
    () => `From: ${feed}\nDate: ${date}\nSubject: report excerpt\n\n`,
    () => 'FWD: report excerpt — ',
    () => `[${feed}] Forwarded advisory (TLP:AMBER)\n\n`,
    () => `Originally published by ${pick(VENDORS)} on ${date}. Shared via ${feed}.\n\n`,
    () => `-----Forwarded message-----\nFrom: analyst@${feed}.example\nSent: ${date}\n\n`,
    () => `Summary from the ${pick(VENDORS)} portal, retrieved ${date}:\n`,
  ])();
}

/** Keeps 60–90% of the words: usually the beginning, sometimes the end (a tail excerpt). */
export function truncate(text: string, rng: () => number): string {
  const words = text.split(' ');
  const keep = Math.max(1, Math.round(words.length * (0.6 + 0.3 * rng())));
  return (rng() < 0.7 ? words.slice(0, keep) : words.slice(words.length - keep)).join(' ');
}

export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z0-9"(])/);
}

export function reorder(text: string, rng: () => number): string {
  const parts = sentences(text);
  let out = shuffled(parts, rng);
  if (out.every((s, i) => s === parts[i])) out = [...parts.slice(1), parts[0]!];
  return out.join(' ');
}

/** The same words re-wrapped: HTML paragraphs, or an e-mail quote hard-wrapped at 64 columns. */
export function reformat(text: string, rng: () => number): string {
  if (rng() < 0.5) {
    const body = sentences(text).map((s) => `<p>${s.replace(/"([^"]*)"/g, '\u201c$1\u201d')}</p>`);
    return `<!DOCTYPE html><html><body>\n${body.join('\n')}\n</body></html>`;
  }
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length > 64) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l) => `> ${l}`).join('\n');
}

export function splicePhrase(text: string, donor: string, rng: () => number): string {
  const words = donor.split(' ');
  const length = 6 + Math.floor(rng() * 5);
  const start = Math.floor(rng() * Math.max(1, words.length - length));
  const phrase = words.slice(start, start + length).join(' ').replace(/[.,;:]+$/, '');
  const parts = sentences(text);
  const at = Math.floor(rng() * (parts.length + 1));
  return [...parts.slice(0, at), `As noted elsewhere, ${phrase}.`, ...parts.slice(at)].join(' ');
}

// --- light paraphrase -------------------------------------------------------------------------------

/**
 * Synonyms an editor reaches for when re-wording a vendor description. Deliberately not shared
 * with the detector: it must survive the substitutions, not undo them.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  designed: ['built', 'created', 'made'], retrieve: ['fetch', 'obtain'], expects: ['anticipates'],
  contain: ['include', 'hold'], contains: ['includes', 'holds'], attempt: ['try'], interpret: ['parse'],
  special: ['particular'], commands: ['instructions'], command: ['instruction'], server: ['host'],
  servers: ['hosts'], communicates: ['talks', 'connects'], communicate: ['talk', 'connect'],
  uses: ['employs', 'utilizes'], use: ['employ'], used: ['employed'], provides: ['offers', 'gives'],
  provide: ['offer', 'give'], capable: ['able'], download: ['fetch'], downloading: ['fetching'],
  upload: ['send'], uploading: ['sending'], execute: ['run'], executing: ['running'], execution: ['running'],
  arbitrary: ['any'], attacker: ['adversary', 'intruder'], attackers: ['adversaries', 'intruders'],
  malware: ['malicious software'], family: ['group', 'set'], members: ['samples'], variants: ['versions'],
  variant: ['version'], information: ['details', 'info'], specific: ['particular'], creating: ['making', 'spawning'],
  create: ['make'], encrypted: ['enciphered'], encoded: ['obfuscated'], include: ['contain'], includes: ['contains'],
  perform: ['carry out'], performing: ['carrying out'], functionality: ['capabilities', 'features'],
  connects: ['links'], connected: ['linked'], connection: ['link'], steal: ['take', 'exfiltrate'],
  gathering: ['collecting'], collect: ['gather'], report: ['document'], identified: ['found', 'spotted'],
  observed: ['seen'], targeted: ['aimed at'], sends: ['transmits'], send: ['transmit'], receive: ['get'],
  several: ['multiple'], many: ['numerous'], often: ['frequently'], begin: ['start'], begins: ['starts'],
  malicious: ['harmful', 'hostile'], compromised: ['infected', 'breached'], victim: ['target'], victims: ['targets'],
  sample: ['specimen'], samples: ['specimens'], system: ['machine', 'host'], tool: ['utility', 'program'],
  utility: ['tool'], program: ['application'], programs: ['applications'], stored: ['kept', 'saved'],
  install: ['set up'], installs: ['sets up'], installed: ['set up'], mechanism: ['method'], method: ['technique'],
  group: ['team', 'crew'], conducted: ['carried out'], campaign: ['operation'], allows: ['lets', 'enables'],
  allow: ['let'], appears: ['seems'], known: ['recognized'], typically: ['usually'], usually: ['normally'],
  first: ['initially'], large: ['big'], obtain: ['acquire'], located: ['found'], hidden: ['concealed'],
};
const FILLERS = ['also', 'really', 'actually', 'in fact', 'basically'];
const OPENERS = ['In fact, ', 'Notably, ', 'Basically, ', 'As reported, '];

/**
 * Swaps about half the words the synonym table knows, flips "X and Y" / "X or Y" word pairs, adds
 * a filler word or an opener to some sentences and drops some "the"/"that"/"very".
 */
export function paraphrase(text: string, rng: () => number): string {
  return sentences(text)
    .map((sentence) => {
      // Plain words only: never a piece of "docs.google.com" or "admin@338".
      let s = sentence.replace(/(?<![\w.@/-])([A-Za-z]+) (and|or) ([A-Za-z]+)(?![\w@/-]|\.\w)/g, (m, x: string, op: string, y: string) =>
        rng() < 0.5 ? `${y} ${op} ${x}` : m,
      );
      s = s.replace(/(?<![\w.@/-])[A-Za-z]+(?![\w@/-]|\.\w)/g, (word) => {
        const options = SYNONYMS[word.toLowerCase()];
        if (!options || rng() >= 0.5) return word;
        const choice = options[Math.floor(rng() * options.length)]!;
        return word[0] === word[0]!.toUpperCase() ? choice[0]!.toUpperCase() + choice.slice(1) : choice;
      });
      s = s.replace(/\b(the|that|very) /g, (m) => (rng() < 0.3 ? '' : m));
      s = s.replace(/\b(is|are|can|will|may) /g, (m) => (rng() < 0.2 ? `${m}${FILLERS[Math.floor(rng() * FILLERS.length)]} ` : m));
      if (rng() < 0.2) s = OPENERS[Math.floor(rng() * OPENERS.length)]! + s[0]!.toLowerCase() + s.slice(1);
      return s;
    })
    .join(' ');
}
