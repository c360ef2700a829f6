import { describe, expect, it } from 'vitest';
import { parseRoute, routeOf, VIEWS, type Route } from './route';

describe('deep links', () => {
  const routes: Route[] = [
    ...VIEWS.map((view) => ({ view })),
    { view: 'evidence', revisionId: 'ev-hr-001~acme.restricted@1' },
    { view: 'review', claimId: 'cl powershell/é' },
    { view: 'graph', focus: { kind: 'case' } },
    { view: 'graph', focus: { kind: 'disputes' } },
    { view: 'graph', focus: { kind: 'claim', id: 'cl-takeover' } },
    { view: 'graph', focus: { kind: 'revision', id: 'ev-edr-001@1' } },
    { view: 'graph', focus: { kind: 'source', id: 'ev-edr-001@1' } },
    { view: 'graph', focus: { kind: 'group', id: 'ev-edr-001@1' } },
  ];

  it('every route reads back as itself, ids with any character included', () => {
    for (const r of routes) expect(parseRoute(routeOf(r)), routeOf(r)).toEqual(r);
  });

  it('a hash this window did not write names no route', () => {
    for (const hash of ['', '#', '#/nowhere', '#/graph/claim', '#/graph/case/x', '#/graph/planet/x', '#/evidence/a/b', '#/review/%E0%A4%A']) expect(parseRoute(hash), hash).toBeNull();
  });
});
