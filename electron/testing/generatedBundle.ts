import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from './seededRandom';

const HOSTS = ['HOST-FS01', 'HOST-DC02', 'HOST-WS17', 'HOST-SQL03', 'HOST-VPN01'];
const VERBS = ['signin', 'process_start', 'file_write', 'dns_query', 'net_connect', 'service_install'];
const KINDS = ['telemetry', 'log_record', 'threat_intel', 'forensic_artifact'] as const;

export const generatedEvidenceId = (i: number) => `gen-ev-${String(i).padStart(5, '0')}`;

/**
 * A seeded case at the size analysts work at, as an evidence bundle (NDJSON) to be imported
 * through the workbench's own channel: `claims` claims, `perClaim` evidence revisions for each
 * (observed over three weeks, four kinds), all bound to their claim. Returns the bundle's path.
 */
export function writeGeneratedBundle(dir: string, claims = 10_000, seed = 20261202, perClaim = 1): string {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const lines: object[] = [{ format: 'erwb-evidence-bundle', version: 1, producer: 'e2e-generator' }];
  for (let i = 0; i < claims; i++) {
    lines.push({ type: 'claim', claimId: `gen-cl-${String(i).padStart(5, '0')}`, statement: `${pick(HOSTS)} shows ${pick(VERBS)} activity of cluster ${i}`, tenant: 'acme', classification: 'internal' });
  }
  const evidence = claims * perClaim;
  for (let i = 0; i < evidence; i++) {
    const observed = new Date(Date.UTC(2026, 10, 1) + Math.floor(rnd() * 21 * 86_400) * 1000).toISOString().replace('.000Z', 'Z');
    const host = pick(HOSTS);
    lines.push({
      type: 'evidence', evidenceId: generatedEvidenceId(i), revision: 1, title: `${pick(VERBS)} on ${host} #${i}`, kind: KINDS[i % KINDS.length],
      content: `${observed} ${pick(VERBS)} host=${host} user=svc-${Math.floor(rnd() * 500)} seq=${i}`,
      context: {
        sourceType: 'edr', sourceRef: `mde:event:${i}`, sourceVersion: '1', observedAt: observed, effectiveFrom: observed, validUntil: null,
        producerType: 'tool', producer: i % 3 === 0 ? 'sentinel-export' : 'defender-for-endpoint', tenant: 'acme', classification: 'internal',
        trustTier: 'trusted', confidence: null, independenceGroup: `edr-${i % 40}`, validationMethod: 'hash+schema', appliesTo: [host],
      },
    });
  }
  for (let i = 0; i < evidence; i++) {
    lines.push({ type: 'binding', claimId: `gen-cl-${String(i % claims).padStart(5, '0')}`, revision: `${generatedEvidenceId(i)}@1`, relation: i % 7 === 0 ? 'REFUTES' : 'FULL_SUPPORT', role: 'SUPPORTING' });
  }
  const path = join(dir, `generated-${claims}x${perClaim}.ndjson`);
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
}
