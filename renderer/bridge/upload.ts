import { DEFAULT_MAX_BUNDLE_BYTES } from '../../shared/interchange/bundle';

/**
 * Why a file dropped or picked in a browser is not uploaded for import, or null. The loopback host
 * refuses a file over the limit too, but it answers as soon as it knows and closes the connection:
 * a browser still sending may then see the connection reset instead of the answer, and would say
 * only "Failed to fetch". Checked here first, the analyst reads what was wrong.
 */
export function uploadRefusal(file: { name: string; size: number }, limit = DEFAULT_MAX_BUNDLE_BYTES): string | null {
  if (file.size <= limit) return null;
  return `upload: ${file.name} is ${file.size.toLocaleString('en')} bytes, larger than the import limit of ${limit.toLocaleString('en')} bytes; nothing was sent`;
}

/** What an upload the network cut off says, naming the file and what the browser reported. */
export const uploadCutOff = (name: string, err: unknown): string =>
  `upload: the connection to the workbench host ended before it answered, while ${name} was being sent (${err instanceof Error ? err.message : String(err)}); nothing was imported`;
