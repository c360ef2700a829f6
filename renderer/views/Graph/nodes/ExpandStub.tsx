import { useShallow } from 'zustand/react/shallow';
import { useWorkbench } from '../../../state/store';

/**
 * "+n": neighbours of this node the neighbourhood left out, added on click; once added, "−"
 * takes them away again. Clicks stay here: they neither select the node nor start a drag.
 */
export function ExpandStub({ node, hidden }: { node: string; hidden: number }) {
  const { expanded, expand, collapse } = useWorkbench(
    useShallow((s) => ({ expanded: s.graphExpanded.includes(node), expand: s.expandGraphNode, collapse: s.collapseGraphNode })),
  );
  if (hidden === 0 && !expanded) return null;
  const stop = (e: React.SyntheticEvent) => e.stopPropagation();
  return (
    <span className="expand-stubs nodrag" onPointerDown={stop} onDoubleClick={stop}>
      {hidden > 0 && (
        <button type="button" className="expand-stub" data-testid={`graph-expand-${node}`} title={`Show ${hidden} more neighbour(s) of ${node}`} onClick={(e) => (stop(e), void expand(node))}>
          +{hidden}
        </button>
      )}
      {expanded && (
        <button type="button" className="expand-stub" data-testid={`graph-collapse-${node}`} title={`Hide the neighbours added for ${node}`} onClick={(e) => (stop(e), void collapse(node))}>
          −
        </button>
      )}
    </span>
  );
}
