import Database from 'better-sqlite3';
import fc from 'fast-check';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { z } from 'zod';
import { CHANNELS, contract, type Channel, type RequestOf, type ResponseOf } from '../../shared/ipc/contract';
import { ErrorBody, type Envelope, type ErrorCode } from '../../shared/ipc/envelope';
import { dispatch } from '../core/dispatch';
import { handlers } from '../core/handlers';
import type { Session } from '../core/session';
import { tableDigest } from '../core/store/digest';
import type { CaseIds } from './channelSeeds';
import { ingestRequest } from './fixtures/evidence';
import { buildFullCase } from './fullCase';
import { brief, holdsHugeText, isPlainObject, materialize, planArbitrary, setAt, slotsOf, type Plan } from './requestMutations';
import { steppingClock } from './reviewCase';
import { TEST_PASSPHRASE, testSession } from './testCase';

/**
 * Test helper (not a test): fuzzes every channel of the IPC contract through the real handler
 * table (issue 12) with the requests of requestMutations.ts, and checks PROPERTIES after each call.
 */

const MAX_MESSAGE = 2000;
const MAX_ISSUES_TEXT = 20_000;

/** What must hold; a broken one is recorded with the first request that broke it. */
export const PROPERTIES = {
  envelope: 'answers { ok: true, value } or { ok: false, error: { code, message, issues? } } with a known code',
  threw: 'dispatch answers an envelope instead of throwing',
  internal: 'never answers INTERNAL',
  echo: `an error stays small whatever came in: its message at most ${MAX_MESSAGE} characters, its issues at most ${MAX_ISSUES_TEXT} characters of text in all`,
  'refusal-wrote': 'a refused call (ok: false) changes no row of the case, and a refused case:create leaves no file behind',
  prototype: 'Object.prototype and Array.prototype keep their own properties',
  chain: 'after each round of calls, audit:verify { full: true } still accepts the chain',
} as const;
export type Property = keyof typeof PROPERTIES;

export interface FuzzCase {
  session: Session;
  dir: string;
  casePath: string;
  ids: CaseIds;
  /** Passphrases a successful actor:passphrase / actor:rekey / actor:create set; the others are TEST_PASSPHRASE. */
  passphrases: Map<string, string>;
  /** One seat (window) per reviewer, so switching who acts does not cost an unlock each time. */
  raw: (actorId: string, channel: string, request: unknown) => Promise<Envelope<unknown>>;
  cleanup: () => void;
}

/**
 * The case of fullCase.ts (rows in every domain table, built by the review cast through the
 * channels) reopened in a session of its own, plus an open proposal and an open remediation.
 */
export async function createFuzzCase(): Promise<FuzzCase> {
  const full = await buildFullCase();
  const dir = dirname(full.path);
  mkdirSync(join(dir, 'elsewhere'));
  const session = testSession({ userDataDir: join(dir, 'user'), now: steppingClock('2026-12-01T00:00:00.000Z') });
  session.open(full.path);
  const raw = (actorId: string, channel: string, request: unknown) => dispatch(handlers, session.seat(actorId), channel, request);
  const call = async <C extends Channel>(actorId: string, channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> => {
    reseat(session, full.path, actorId, TEST_PASSPHRASE);
    const answer = await raw(actorId, channel, request);
    if (!answer.ok) throw new Error(`fuzz case setup: ${channel}: ${answer.error.code}: ${answer.error.message}`);
    return answer.value as ResponseOf<C>;
  };
  await call('bob', 'decision:propose', { claimId: 'cl-quorum', verdict: 'SUPPORTED', rationale: 'three reviewers found the quote in the source' });
  // And an open remediation (fullCase's one is resolved), so the remediation actions can pass too.
  const { revisionId } = await call('admin', 'evidence:ingest', ingestRequest('ev-fuzz-revoked'));
  await call('bob', 'evidence:transition', { revisionId, to: 'VALIDATED', reason: 'checklist passed' });
  await call('alice', 'claim:create', { claimId: 'cl-remediate', statement: 'svc-backup exfiltrated the finance share', tenant: 'acme', classification: 'internal' });
  await call('alice', 'claim:bind', { claimId: 'cl-remediate', revisionId, relation: 'FULL_SUPPORT', role: 'SUPPORTING' });
  const decided = await call('bob', 'decision:propose', { claimId: 'cl-remediate', verdict: 'SUPPORTED', rationale: 'the export shows it' });
  await call('carol', 'decision:approve', { decisionId: decided.decisionId, fingerprint: decided.fingerprint });
  await call('admin', 'evidence:transition', { revisionId, to: 'REVOKED', reason: 'the export was fabricated' });
  await call('admin', 'revocation:runWorker', {});
  const sources = (await call('admin', 'source:list', {})).items.map((s) => s.sourceId);
  const claims = (await call('admin', 'claim:list', {})).map((c) => c.claimId);
  const bases: Record<string, string> = {};
  for (const claimId of claims) bases[claimId] = (await call('admin', 'review:get', { claimId })).basis;
  const ids: CaseIds = {
    dir,
    casePath: full.path,
    revisions: (await call('admin', 'evidence:list', { limit: 200 })).items.map((r) => r.revisionId),
    claims,
    // Decision ids are random: ordered by what they decide, so a seed picks the same decision each run.
    decisions: (await call('admin', 'decision:list', {})).items
      .sort((a, b) => `${a.claimId} ${a.proposedAt}`.localeCompare(`${b.claimId} ${b.proposedAt}`))
      .map(({ decisionId, fingerprint }) => ({ decisionId, fingerprint })),
    remediations: (await call('admin', 'remediation:list', {})).items.map(({ remediationId, projectionVersion }) => ({ remediationId, projectionVersion })),
    sources,
    sourceText: (await call('admin', 'source:get', { sourceId: sources[0]! })).content,
    bases,
    actors: (await call('admin', 'actor:list', {})).map((a) => a.actorId),
    head: (await call('admin', 'audit:head', {})).head,
  };
  return {
    session,
    dir,
    casePath: full.path,
    ids,
    passphrases: new Map(),
    raw,
    cleanup: () => {
      session.close();
      full.cleanup();
    },
  };
}

/** `actorId`'s seat acts as them on the fuzz case again, whatever the last call did (case:open, case:create, actor:lock…). */
function reseat(session: Session, casePath: string, actorId: string, passphrase: string): void {
  const seat = session.seat(actorId);
  try {
    if (session.casePath !== casePath) session.open(casePath);
    if (seat.unlockedActor()?.actorId !== actorId) seat.unlock(actorId, passphrase);
  } catch (err) {
    throw new Error(`fuzz run: could not act as ${actorId} on the fuzz case again: ${(err as Error).message}`, { cause: err });
  }
}
const reseatIn = (fz: FuzzCase, actorId: string) => reseat(fz.session, fz.casePath, actorId, fz.passphrases.get(actorId) ?? TEST_PASSPHRASE);

/** case:open / case:create paths stay inside the test's folder, whatever the fuzzer made of them. */
function confinePath(fz: FuzzCase, request: unknown): unknown {
  if (!isPlainObject(request) || !Object.hasOwn(request, 'path') || typeof request.path !== 'string') return request;
  const path = request.path;
  const inside = path === ':memory:' || (path.startsWith(fz.dir + sep) && !path.split(sep).includes('..'));
  return inside ? request : setAt(request, ['path'], join(fz.dir, 'elsewhere', path.replace(/[\\/]/g, '_')));
}

const EnvelopeShape = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }).strict(),
  z.object({ ok: z.literal(false), error: ErrorBody.strict() }).strict(),
]);

export interface Violation {
  channel: Channel | 'audit:verify (after a round)';
  property: Property;
  /** How many calls broke it on this channel; the fields below are the first one. */
  count: number;
  detail: string;
  actor: string;
  mutations: string[];
  request: string;
  answer: string;
}

export interface ChannelTally {
  channel: Channel;
  requests: number;
  /** Sent without mutation: valid-looking requests on the case's ids. */
  asIs: number;
  ok: number;
  refused: Partial<Record<ErrorCode, number>>;
  /** Answered ok with a 1–10 MB string in the request (accepted and, by a write, stored). */
  hugeAccepted: number;
  violations: number;
  ms: number;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  total: number;
  ms: number;
  tallies: ChannelTally[];
  violations: Violation[];
  /** audit:verify { full: true } as admin after the run. */
  finalVerify: Envelope<unknown>;
}

export interface FuzzOptions {
  seed: number;
  /** Requests per channel. */
  runs: number;
  channels?: readonly Channel[];
}

const prototypeKeys = () => `${Object.getOwnPropertyNames(Object.prototype).sort().join()}|${Object.getOwnPropertyNames(Array.prototype).sort().join()}`;
const chainAccepted = (answer: Envelope<unknown>) => answer.ok && isPlainObject(answer.value) && answer.value.ok === true;

/**
 * Sends `runs` requests per channel, one per channel a round in a fresh shuffled order, so writes
 * of one channel meet reads of the others; checks PROPERTIES after each call and the chain after
 * each round (until it first breaks: a broken chain stays broken).
 */
export async function fuzzChannels(fz: FuzzCase, options: FuzzOptions): Promise<FuzzReport> {
  const channels = [...(options.channels ?? CHANNELS)];
  const started = performance.now();
  const plans = new Map(channels.map((c, i) => [c, fc.sample(planArbitrary(c, fz.ids), { seed: options.seed + i, numRuns: options.runs })]));
  const slots = new Map(channels.map((c) => [c, slotsOf(contract[c].request as z.ZodType)]));
  const orders = fc.sample(fc.shuffledSubarray(channels, { minLength: channels.length, maxLength: channels.length }), { seed: options.seed, numRuns: options.runs });
  const tallies = new Map(channels.map((c) => [c, { channel: c, requests: 0, asIs: 0, ok: 0, refused: {}, hugeAccepted: 0, violations: 0, ms: 0 } as ChannelTally]));
  const violations = new Map<string, Violation>();
  const record = (v: Omit<Violation, 'count'>) => {
    const seen = violations.get(`${v.channel}|${v.property}`);
    if (seen) seen.count++;
    else violations.set(`${v.channel}|${v.property}`, { ...v, count: 1 });
  };
  const prototypes = prototypeKeys();
  // SQLite's data_version moves on every commit by another connection: while it stands still the
  // rows cannot have changed, so the table digest (the judge of "changed nothing") is only taken
  // when something was committed.
  const watcher = new Database(fz.casePath, { readonly: true, fileMustExist: true });
  const dataVersion = () => watcher.pragma('data_version', { simple: true }) as number;
  let baseline = { version: dataVersion(), digest: tableDigest(fz.casePath) };
  let chainOk = true;
  let writesSinceVerified: string[] = [];

  try {
    for (let round = 0; round < options.runs; round++) {
      for (const channel of orders[round]!) {
        const plan = plans.get(channel)![round]!;
        const tally = tallies.get(channel)!;
        reseatIn(fz, plan.actor);
        if (dataVersion() !== baseline.version) baseline = { version: dataVersion(), digest: tableDigest(fz.casePath) };
        const { request: generated, notes } = materialize(plan, slots.get(channel)!);
        const request = channel === 'case:open' || channel === 'case:create' ? confinePath(fz, generated) : generated;
        const createTarget = channel === 'case:create' && isPlainObject(request) && typeof request.path === 'string' && request.path !== ':memory:' ? request.path : null;
        const targetExisted = createTarget !== null && existsSync(createTarget);

        const broken: [Property, string][] = [];
        const t0 = performance.now();
        let answer: Envelope<unknown> | undefined;
        try {
          answer = await fz.raw(plan.actor, channel, request);
        } catch (err) {
          broken.push(['threw', brief(err instanceof Error ? `${err.name}: ${err.message}` : err)]);
        }
        tally.ms += performance.now() - t0;
        tally.requests++;
        if (plan.mutations.length === 0) tally.asIs++;
        if (answer !== undefined) broken.push(...envelopeProblems(answer, tally, request));

        if (answer?.ok) {
          if (dataVersion() !== baseline.version) writesSinceVerified.push(`${channel} as ${plan.actor}: ${brief(request)}`);
          await afterSuccess(fz, plan, request, answer.value);
        } else if (dataVersion() !== baseline.version) {
          const after = { version: dataVersion(), digest: tableDigest(fz.casePath) };
          if (after.digest !== baseline.digest) {
            broken.push(['refusal-wrote', 'the table digest of the case changed']);
            writesSinceVerified.push(`${channel} as ${plan.actor} (refused): ${brief(request)}`);
          }
          baseline = after;
        }
        if (createTarget !== null && !answer?.ok && !targetExisted && existsSync(createTarget)) {
          broken.push(['refusal-wrote', `left a file at ${brief(createTarget)}`]);
        }
        if (prototypeKeys() !== prototypes) broken.push(['prototype', 'a built-in prototype gained or lost a property']);
        for (const [property, detail] of broken) {
          tally.violations++;
          record({ channel, property, detail, actor: plan.actor, mutations: notes, request: brief(request), answer: brief(answer) });
        }
      }
      if (chainOk && writesSinceVerified.length > 0) {
        reseatIn(fz, 'admin');
        const verified = await fz.raw('admin', 'audit:verify', { full: true });
        if (!chainAccepted(verified)) {
          chainOk = false;
          const detail = `round ${round + 1}: ${brief(verified.ok && isPlainObject(verified.value) ? verified.value.firstBroken : verified)}`;
          record({ channel: 'audit:verify (after a round)', property: 'chain', detail, actor: 'admin', mutations: writesSinceVerified, request: '{ full: true }', answer: brief(verified) });
        }
        writesSinceVerified = [];
      }
    }
  } finally {
    watcher.close();
  }
  reseatIn(fz, 'admin');
  const finalVerify = await fz.raw('admin', 'audit:verify', { full: true });
  const list = [...tallies.values()];
  return {
    seed: options.seed,
    runs: options.runs,
    total: list.reduce((n, t) => n + t.requests, 0),
    ms: performance.now() - started,
    tallies: list,
    violations: [...violations.values()],
    finalVerify,
  };
}

/** Counts the answer and says which answer-only properties it breaks. */
function envelopeProblems(answer: Envelope<unknown>, tally: ChannelTally, request: unknown): [Property, string][] {
  const shape = EnvelopeShape.safeParse(answer);
  if (!shape.success) return [['envelope', shape.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')]];
  if (answer.ok) {
    tally.ok++;
    if (holdsHugeText(request)) tally.hugeAccepted++;
    return Object.hasOwn(answer, 'value') ? [] : [['envelope', 'ok: true without a value']];
  }
  const { code, message, issues } = answer.error;
  tally.refused[code] = (tally.refused[code] ?? 0) + 1;
  const problems: [Property, string][] = [];
  if (code === 'INTERNAL') problems.push(['internal', message]);
  if (message.length > MAX_MESSAGE) problems.push(['echo', `message of ${message.length.toLocaleString('en-US')} characters`]);
  const issuesText = (issues ?? []).reduce((n, i) => n + i.message.length + i.path.join('.').length, 0);
  if (issuesText > MAX_ISSUES_TEXT) {
    const longest = issues!.reduce((n, i) => Math.max(n, i.message.length), 0);
    problems.push(['echo', `${issues!.length.toLocaleString('en-US')} issues, ${issuesText.toLocaleString('en-US')} characters of text (longest message ${longest.toLocaleString('en-US')})`]);
  }
  return problems;
}

/** Keeps the run going after a success that changed who may act, or froze the case. */
async function afterSuccess(fz: FuzzCase, plan: Plan, request: unknown, value: unknown): Promise<void> {
  if (!isPlainObject(request)) return;
  if (plan.channel === 'actor:passphrase') fz.passphrases.set(plan.actor, request.next as string);
  if (plan.channel === 'actor:rekey' || plan.channel === 'actor:create') fz.passphrases.set(request.actorId as string, request.passphrase as string);
  if (plan.channel === 'case:finalize' && isPlainObject(value) && value.final === true) {
    reseatIn(fz, 'admin');
    const reopened = await fz.raw('admin', 'case:reopen', { reason: 'fuzz run: keep the case open to writes' });
    if (!reopened.ok) throw new Error(`fuzz run: could not reopen the finalized case: ${reopened.error.message}`);
  }
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

/** One line per channel, then the totals and the final verification. */
export function formatReport(report: FuzzReport): string {
  const lines = [
    `channel fuzz: seed ${report.seed}, ${report.runs} requests per channel, ${report.total} in all, ${(report.ms / 1000).toFixed(1)} s`,
    `${'channel'.padEnd(36)}${pad('sent', 6)}${pad('as-is', 7)}${pad('ok', 6)}${pad('huge ok', 9)}${pad('broken', 8)}${pad('ms', 8)}  refused`,
  ];
  for (const t of report.tallies) {
    const refused = Object.entries(t.refused).sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ');
    lines.push(`${t.channel.padEnd(36)}${pad(t.requests, 6)}${pad(t.asIs, 7)}${pad(t.ok, 6)}${pad(t.hugeAccepted, 9)}${pad(t.violations, 8)}${pad(Math.round(t.ms), 8)}  ${refused}`);
  }
  const verify = report.finalVerify;
  lines.push(`audit:verify { full: true } after the run: ${verify.ok ? `chain ok: ${brief((verify.value as { ok?: unknown }).ok)}` : `${verify.error.code}: ${verify.error.message}`}`);
  lines.push(`${report.violations.length} distinct violations (channel × property)`);
  return lines.join('\n');
}

export const formatViolation = (v: Violation): string =>
  `${v.channel} broke "${v.property}" ${v.count}× (${v.detail}); first as ${v.actor}, ${v.property === 'chain' ? 'writes since the last good verification' : 'mutations'}: ${v.mutations.join('; ') || 'none'}\n  request: ${v.request}\n  answer:  ${v.answer}`;
