import type { Relation } from '../../../shared/domain/enums';

/**
 * One table for how each claim–evidence relation looks: the edge stroke, its arrowhead and the
 * legend swatch all read it, so an edge can never disagree with the legend. Support is green,
 * refutation red and dashed (it must read as "against" even in greyscale print), the weaker
 * relations fade out.
 */
export const RELATION_STYLE: Record<Relation, { color: string; dash: string | undefined; width: number; label: string }> = {
  FULL_SUPPORT: { color: '#1d7a46', dash: undefined, width: 2.2, label: 'full support' },
  PARTIAL_SUPPORT: { color: '#5a9e72', dash: '6 3', width: 1.6, label: 'partial support' },
  REFUTES: { color: '#b3261e', dash: '8 4', width: 2.2, label: 'refutes' },
  CONTEXT_ONLY: { color: '#7b8594', dash: '2 3', width: 1.2, label: 'context only' },
  IRRELEVANT: { color: '#b7bec8', dash: '1 4', width: 1, label: 'irrelevant' },
  UNKNOWN: { color: '#9a6700', dash: '4 2 1 2', width: 1.2, label: 'unknown' },
};
