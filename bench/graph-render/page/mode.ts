/** What the page draws, from the URL hash (see bench/graph-render/vite.config.ts). */
export const MODES = ['ours', 'ours-render', 'plain'] as const;
export type BenchMode = (typeof MODES)[number];

export function benchMode(): BenchMode {
  const hash = window.location.hash.slice(1);
  const mode = MODES.find((m) => m === hash);
  if (!mode) throw new Error(`graph-render: unknown mode '${hash}'; open the page with #${MODES.join(', #')}`);
  return mode;
}
