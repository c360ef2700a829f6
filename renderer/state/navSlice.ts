import type { Slice } from './slice';

export const VIEWS = ['cases', 'graph', 'evidence', 'review', 'disputes', 'quarantine', 'remediations', 'audit'] as const;
export type View = (typeof VIEWS)[number];

export interface NavSlice {
  view: View;
  selectedRevisionId: string | null;
  selectedClaimId: string | null;
  setView: (view: View) => void;
  selectRevision: (revisionId: string | null) => void;
  selectClaim: (claimId: string | null) => void;
}

export const createNavSlice: Slice<NavSlice> = (set) => ({
  view: 'cases',
  selectedRevisionId: null,
  selectedClaimId: null,
  setView: (view) => set({ view }),
  selectRevision: (selectedRevisionId) => set({ selectedRevisionId }),
  selectClaim: (selectedClaimId) => set({ selectedClaimId }),
});
