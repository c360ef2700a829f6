import type { GraphFocus, View } from './types';

/**
 * Deep links (issue 11.7): the window's place as a hash route, so a link, a reload and the
 * browser's Back and Forward open the same view on the same item.
 *
 *   #/<view>                         any view
 *   #/evidence/<revisionId>          the Evidence view on a revision
 *   #/review/<claimId>               the Review view on a claim
 *   #/graph/<focus kind>[/<id>]      the graph on a focus (case, disputes, claim, revision, source, group)
 */
export interface Route {
  view: View;
  revisionId?: string;
  claimId?: string;
  focus?: GraphFocus;
}

export const VIEWS: readonly View[] = ['cases', 'dashboard', 'intake', 'graph', 'timeline', 'evidence', 'review', 'disputes', 'quarantine', 'remediations', 'whatif', 'audit'];

export function routeOf(r: Route): string {
  const part = (s: string) => encodeURIComponent(s);
  if (r.view === 'evidence' && r.revisionId) return `#/evidence/${part(r.revisionId)}`;
  if (r.view === 'review' && r.claimId) return `#/review/${part(r.claimId)}`;
  if (r.view === 'graph' && r.focus) return `#/graph/${r.focus.kind}${'id' in r.focus ? `/${part(r.focus.id)}` : ''}`;
  return `#/${r.view}`;
}

/** The route a hash names, or null when it names none (a hash this window did not write). */
export function parseRoute(hash: string): Route | null {
  const [view, ...rest] = hash.replace(/^#\/?/, '').split('/');
  if (!VIEWS.includes(view as View)) return null;
  let parts: string[];
  try {
    parts = rest.map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
  const v = view as View;
  if (parts.length === 0 || parts[0] === '') return { view: v };
  if (v === 'evidence' && parts.length === 1) return { view: v, revisionId: parts[0]! };
  if (v === 'review' && parts.length === 1) return { view: v, claimId: parts[0]! };
  if (v === 'graph') {
    const [kind, id] = parts as [string, string | undefined];
    if ((kind === 'case' || kind === 'disputes') && id === undefined) return { view: v, focus: { kind } };
    if ((kind === 'claim' || kind === 'revision' || kind === 'source' || kind === 'group') && id) return { view: v, focus: { kind, id } };
  }
  return null;
}
