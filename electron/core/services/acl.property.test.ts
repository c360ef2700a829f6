import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import { isChannel, type Channel } from '../../../shared/ipc/contract';
import { ingestRequest } from '../../testing/fixtures/evidence';
import { createTestCase, type TestCase } from '../../testing/testCase';
import { canSee } from '../store/acl';
import { TEST_PASSPHRASE } from '../../testing/testCase';

const TENANTS = ['t1', 't2', 't3'] as const;

const item = fc.record({
  tenant: fc.constantFrom(...TENANTS),
  classification: fc.constantFrom(...CLASSIFICATIONS),
});
const actor = fc.record({
  tenants: fc.oneof(fc.constant<string[]>(['*']), fc.uniqueArray(fc.constantFrom<string>(...TENANTS), { minLength: 1, maxLength: 3 })),
  maxClassification: fc.constantFrom(...CLASSIFICATIONS),
  role: fc.constantFrom('analyst' as const, 'reviewer' as const),
});
const scenario = fc.record({
  evidence: fc.array(item, { minLength: 1, maxLength: 8 }),
  claims: fc.array(fc.record({ on: item, binds: fc.array(fc.nat(), { maxLength: 4 }) }), { minLength: 1, maxLength: 4 }),
  quarantineFirst: fc.boolean(),
  revokeLast: fc.boolean(),
  actor,
});

/** Every read a user can make, with requests built from what the case holds. */
async function readEverything(tc: TestCase, ids: { revisions: string[]; claims: string[] }): Promise<{ channel: string; request: string; json: string }[]> {
  const out: { channel: string; request: string; json: string }[] = [];
  const read = async (channel: string, request: unknown) =>
    out.push({ channel, request: JSON.stringify(request), json: JSON.stringify(await tc.raw(channel, request)) });
  await read('case:info', {});
  await read('evidence:list', { limit: 200 });
  for (const state of ['CANDIDATE', 'VALIDATED', 'QUARANTINED'] as const) await read('evidence:list', { limit: 200, state });
  for (const revisionId of ids.revisions) await read('evidence:get', { revisionId });
  await read('claim:list', {});
  for (const claimId of ids.claims) await read('claim:get', { claimId });
  await read('audit:list', { limit: 500 });
  const optional: [string, unknown][] = [
    ['search:query', { q: 'secretmarker', limit: 100 }],
    ...ids.claims.map((claimId): [string, unknown] => ['provenance:trace', { claimId }]),
    ...ids.revisions.map((revisionId): [string, unknown] => ['provenance:trace', { revisionId }]),
    ['decision:list', {}],
    ['review:list', {}],
    ...ids.claims.map((claimId): [string, unknown] => ['review:get', { claimId }]),
    ['remediation:list', {}],
    ['revocation:status', {}],
    ['case:gate', {}],
    ['source:list', {}],
    ['audit:keys', {}],
  ];
  for (const [channel, request] of optional) if (isChannel(channel as Channel)) await read(channel, request);
  return out;
}

describe('access control is a hard filter on every read channel', () => {
  it('no evidence or claim outside the actor clearance reaches any response (ids, titles, content, counts)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const tc = await createTestCase();
        try {
          const revisions: { id: string; marker: string; sha: string; tenant: string; classification: Classification }[] = [];
          for (const [i, e] of s.evidence.entries()) {
            const marker = `secretmarker${i}x${Math.random().toString(36).slice(2, 8)}`;
            const { revisionId } = await tc.call('evidence:ingest', {
              ...ingestRequest(`ev-${marker}`, { content: `payload ${marker}`, context: { tenant: e.tenant, classification: e.classification } }),
              title: `title ${marker}`,
            });
            if (i === 0 && s.quarantineFirst) await tc.call('evidence:transition', { revisionId, to: 'QUARANTINED', reason: 'test' });
            revisions.push({ id: revisionId, marker, sha: createHash('sha256').update(`payload ${marker}`).digest('hex'), ...e });
          }
          const claims: { id: string; marker: string; tenant: string; classification: Classification }[] = [];
          for (const [i, c] of s.claims.entries()) {
            const marker = `claimmarker${i}x${Math.random().toString(36).slice(2, 8)}`;
            const created = await tc.call('claim:create', { claimId: `cl-${marker}`, statement: `statement ${marker}`, tenant: c.on.tenant, classification: c.on.classification });
            for (const b of new Set(c.binds.map((n) => n % revisions.length))) {
              await tc.call('claim:bind', { claimId: created.claimId, revisionId: revisions[b]!.id, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
            }
            claims.push({ id: created.claimId, marker, ...c.on });
          }
          // Revocation, convergence and a proposed decision give the queue and gate channels
          // something to say about hidden evidence too.
          if (s.revokeLast) {
            await tc.call('evidence:transition', { revisionId: revisions.at(-1)!.id, to: 'REVOKED', reason: 'test revoke' });
            await tc.call('revocation:runWorker', { maxJobs: 100 });
          }
          await tc.call('decision:propose', { claimId: claims[0]!.id, verdict: 'NEEDS_MORE_EVIDENCE', rationale: `rationale ${claims[0]!.marker}` });
          const who = { actorId: 'probe', displayName: 'Probe', role: s.actor.role, tenants: [...s.actor.tenants], maxClassification: s.actor.maxClassification };
          await tc.call('actor:create', { ...who, passphrase: TEST_PASSPHRASE });
          tc.as('probe');

          const clearance = { ...who };
          const hidden = [...revisions, ...claims].filter((x) => !canSee(clearance, x as never));
          const visibleRevisions = revisions.filter((r) => canSee(clearance, r as never));
          const responses = await readEverything(tc, { revisions: revisions.map((r) => r.id), claims: claims.map((c) => c.id) });
          for (const { channel, request, json } of responses) {
            for (const h of hidden) {
              // An error may echo back the id the caller asked for; it must add nothing else.
              const seen = request.includes(h.id) ? json.split(h.id).join('') : json;
              expect(seen, `${channel} ${request} leaked ${h.marker}`).not.toContain(h.marker);
              // Nor the hash of its content (issue 9.7: audit:list returned it in a withheld receipt).
              if ('sha' in h) expect(seen, `${channel} ${request} leaked the content hash of ${h.marker}`).not.toContain(h.sha);
            }
          }
          const info = await tc.call('case:info', {});
          expect(info.evidenceCount).toBe(visibleRevisions.length);
          expect(info.claimCount).toBe(claims.filter((c) => canSee(clearance, c as never)).length);
          const listed = await tc.call('evidence:list', { limit: 200 });
          expect(listed.items.map((i) => i.revisionId).sort()).toEqual(visibleRevisions.map((r) => r.id).sort());
          // A hidden revision answers exactly like one that does not exist.
          const missing = await tc.raw('evidence:get', { revisionId: 'ev-nothing-here@1' });
          for (const h of revisions.filter((r) => !canSee(clearance, r as never))) {
            const answer = await tc.raw('evidence:get', { revisionId: h.id });
            expect(answer.ok).toBe(false);
            if (!answer.ok && !missing.ok) {
              expect(answer.error.code).toBe(missing.error.code);
              expect(answer.error.message.replace(h.id, 'X')).toBe(missing.error.message.replace('ev-nothing-here@1', 'X'));
            }
          }
        } finally {
          tc.cleanup();
        }
      }),
      { numRuns: 30 },
    );
  });
});
