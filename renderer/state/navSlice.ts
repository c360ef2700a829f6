import type { NavSlice, Slice } from './types';

export const createNavSlice: Slice<NavSlice> = (set) => ({
  view: 'cases',
  selectedRevisionId: null,
  selectedClaimId: null,
  setView: (view) => set({ view }),
  selectRevision: (selectedRevisionId) => set({ selectedRevisionId }),
  selectClaim: (selectedClaimId) => set({ selectedClaimId }),
  whatIfRevisions: [],
  setWhatIfRevisions: (whatIfRevisions) => set({ whatIfRevisions }),
  openWhatIf: (whatIfRevisions) => set({ whatIfRevisions, view: 'whatif' }),
  lastDrill: null,
  setLastDrill: (lastDrill) => set({ lastDrill }),
});
