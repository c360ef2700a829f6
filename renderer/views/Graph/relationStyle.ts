import type { Relation } from '../../../shared/domain/enums';

/**
 * One table for how each claim–evidence relation looks: the edge stroke, its arrowhead and the
 * legend swatch all read it, so an edge can never disagree with the legend. Support is green,
 * refutation red and dashed (it must read as "against" even in greyscale print), the weaker
 * relations fade out. The colours are the stylesheet's palette variables (renderer/styles.css), so
 * they follow the light or dark theme.
 */
export const RELATION_STYLE: Record<Relation, { color: string; dash: string | undefined; width: number; label: string }> = {
  FULL_SUPPORT: { color: 'var(--rel-full-support)', dash: undefined, width: 2.2, label: 'full support' },
  PARTIAL_SUPPORT: { color: 'var(--rel-partial-support)', dash: '6 3', width: 1.6, label: 'partial support' },
  REFUTES: { color: 'var(--rel-refutes)', dash: '8 4', width: 2.2, label: 'refutes' },
  CONTEXT_ONLY: { color: 'var(--rel-context-only)', dash: '2 3', width: 1.2, label: 'context only' },
  IRRELEVANT: { color: 'var(--rel-irrelevant)', dash: '1 4', width: 1, label: 'irrelevant' },
  UNKNOWN: { color: 'var(--rel-unknown)', dash: '4 2 1 2', width: 1.2, label: 'unknown' },
};
