/** Times stay in UTC: evidence from many sources is compared by analysts across time zones. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

export function shortHash(hash: string, length = 12): string {
  return hash.length > length ? `${hash.slice(0, length)}…` : hash;
}

export const orDash = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/** Splits "q-17, nb:exfil.ipynb" or one ref per line into refs; the service dedupes and sorts them. */
export const parseRefs = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((r) => r.trim())
    .filter((r) => r.length > 0);
