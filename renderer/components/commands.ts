/** A command the palette offers: a label to match and what it does. */
export interface Command {
  id: string;
  label: string;
  /** More words it answers to ("verify" finds "Check the audit chain"). */
  keywords?: string;
  run: () => void;
}

/**
 * The commands matching what was typed: every word typed must start a word of the label or the
 * keywords (case-insensitive), so "go dis" finds "Go to Disputes" and "aud ver" the audit check.
 * An empty query lists every command. Order is kept: the caller lists commands as it ranks them.
 */
export function matchCommands(query: string, commands: readonly Command[]): Command[] {
  const typed = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (typed.length === 0) return [...commands];
  return commands.filter((c) => {
    const words = `${c.label} ${c.keywords ?? ''}`.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    return typed.every((t) => words.some((w) => w.startsWith(t)));
  });
}
