import { useStore } from '@xyflow/react';

/** Below this zoom a node's text is too small to read: nodes draw as compact badges instead. */
export const COMPACT_BELOW = 0.45;

/** Whether the canvas is zoomed out to badges; re-renders a node only when this flips. */
export const useCompact = (): boolean => useStore((s) => s.transform[2] < COMPACT_BELOW);
