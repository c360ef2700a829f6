/**
 * Instants (ISO 8601, UTC) and clock times of day, both as whole milliseconds in a bigint. The
 * calendar arithmetic is done here with integers rather than through Date, so the result does not
 * depend on the engine's Date parser or the machine's time zone.
 */
export const MS_PER_DAY = 86_400_000n;

/** Instants are kept to four-digit years so their ISO text stays the canonical 4-digit form. */
export const FIRST_INSTANT_MS = BigInt(daysFromCivil(0, 1, 1)) * MS_PER_DAY;
export const LAST_INSTANT_MS = BigInt(daysFromCivil(9999, 12, 31) + 1) * MS_PER_DAY - 1n;

export type TimeReading =
  | { readonly kind: 'instant' | 'clock'; readonly ms: bigint }
  | { readonly kind: 'invalid'; readonly problem: string; readonly todo: string }
  | { readonly kind: 'not-a-time' };

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*([Zz]|UTC|[+-]\d{2}:\d{2})?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:\s*([Zz]|UTC))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LOOKS_LIKE_TIME = /^\d{1,4}[-:]/;

const TIME_EXAMPLES = 'write an instant like 2026-03-01T03:10:00Z or a clock time like 03:10';
const invalid = (problem: string, todo = TIME_EXAMPLES): TimeReading => ({ kind: 'invalid', problem, todo });

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysInMonth(year: number, month: number): number {
  return daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1);
}

/** Milliseconds of a fraction of a second given to at most 9 digits; null when finer than 1 ms. */
function fractionMs(fraction: string | undefined): bigint | null {
  const digits = (fraction ?? '').padEnd(9, '0');
  if (!/^0*$/.test(digits.slice(3))) return null;
  return BigInt(digits.slice(0, 3));
}

/**
 * Reads `2026-03-01T03:10:00Z` (also with a space for T, ` UTC` or an offset such as `+02:00`,
 * seconds and up to millisecond fractions optional) or a clock time `03:10`, `3:10:15`, `03:10 UTC`.
 * A date-time without a zone is refused: it names no instant.
 */
export function readTime(text: string): TimeReading {
  const instant = INSTANT.exec(text);
  if (instant) return readInstant(instant);
  const clock = CLOCK.exec(text);
  if (clock) return readClock(clock);
  if (DATE.test(text)) {
    return invalid(`${text} is a date, not an instant`, `add a time and a zone, as in ${text}T00:00:00Z`);
  }
  if (LOOKS_LIKE_TIME.test(text)) {
    return invalid(`"${text}" is not a time`);
  }
  return { kind: 'not-a-time' };
}

function timeOfDayMs(hh: string, mm: string, ss: string | undefined, fraction: string | undefined): bigint | string {
  const [h, m, s] = [Number(hh), Number(mm), Number(ss ?? '0')];
  if (h > 23 || m > 59 || s > 59) return `${hh}:${mm}${ss === undefined ? '' : `:${ss}`} is not a time of day (00:00:00 to 23:59:59)`;
  const ms = fractionMs(fraction);
  if (ms === null) return `.${fraction} is finer than a millisecond, which is the finest time this language keeps`;
  return BigInt(((h * 60 + m) * 60 + s) * 1000) + ms;
}

function readInstant(match: RegExpExecArray): TimeReading {
  const [, yyyy, mo, dd, hh, mm, ss, fraction, zone] = match as unknown as string[];
  if (zone === undefined) {
    return invalid(`${match[0]} has no time zone`, 'add Z for UTC (2026-03-01T03:10:00Z) or an offset such as +02:00');
  }
  const [year, month, day] = [Number(yyyy), Number(mo), Number(dd)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return invalid(`${yyyy}-${mo}-${dd} is not a calendar date`);
  }
  const ofDay = timeOfDayMs(hh!, mm!, ss, fraction);
  if (typeof ofDay === 'string') return invalid(ofDay);
  let offsetMs = 0n;
  if (zone.length === 6) {
    const [oh, om] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
    if (oh > 23 || om > 59) return invalid(`${zone} is not a UTC offset`);
    offsetMs = BigInt((oh * 60 + om) * 60_000) * (zone.startsWith('-') ? -1n : 1n);
  }
  const ms = BigInt(daysFromCivil(year, month, day)) * MS_PER_DAY + ofDay - offsetMs;
  if (ms < FIRST_INSTANT_MS || ms > LAST_INSTANT_MS) return invalid(`${match[0]} falls outside the years 0000 to 9999`);
  return { kind: 'instant', ms };
}

function readClock(match: RegExpExecArray): TimeReading {
  const [, hh, mm, ss, fraction] = match as unknown as string[];
  const ms = timeOfDayMs(hh!, mm!, ss, fraction);
  if (typeof ms === 'string') return invalid(ms);
  return { kind: 'clock', ms };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** `HH:MM:SS`, with `.mmm` only when the milliseconds are not zero. */
export function formatClock(ms: bigint): string {
  const n = Number(ms);
  const millis = n % 1000;
  const seconds = Math.floor(n / 1000);
  const text = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
  return millis === 0 ? text : `${text}.${String(millis).padStart(3, '0')}`;
}

/** `YYYY-MM-DDTHH:MM:SSZ`, with `.mmm` before the Z only when the milliseconds are not zero. */
export function formatInstant(ms: bigint): string {
  const days = ms / MS_PER_DAY - (ms % MS_PER_DAY < 0n ? 1n : 0n);
  const { year, month, day } = civilFromDays(Number(days));
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${formatClock(ms - days * MS_PER_DAY)}Z`;
}
