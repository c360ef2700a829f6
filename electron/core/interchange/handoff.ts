import { createHash, randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { canonicalJson } from '../../../shared/domain/canonical';
import { publicKeyObject, verifySignature } from '../audit/keys';
import { chainHead } from '../audit/receiptViews';
import { signingKeyFor } from '../audit/receipts';
import { verifyCaseFile } from '../audit/verifyFile';
import type { ServiceContext } from '../context';
import { conflict, invalid } from '../errors';
import { readCaseMeta } from '../services/caseMeta';
import { openReader } from '../store/caseFile';
import { writeNewFile } from './newFile';

/**
 * Signed case hand-off (issue 10.6): how an investigation moves between air-gapped machines.
 *
 * The archive is one file: a magic line, a manifest (case id and name, chain head, the exporting
 * reviewer and key, the SHA-256 and size of the case file), the exporting reviewer's Ed25519
 * signature over the manifest, then a consistent snapshot of the case file (VACUUM INTO). It holds
 * receipts and public keys, never a private key. Importing checks, before anything is placed
 * where a case can be opened: the payload's hash, a full verification of the case file (chain,
 * every signature, every state check), that the manifest matches the file, and the signature
 * with the exporter's key as the case's own chain registered it. Any failure refuses with the
 * reason, and nothing is written at the target.
 */
const MAGIC = 'ERWB-HANDOFF 1';
const SIGNED_AS = 'erwb-handoff:v1:';

const Manifest = z
  .object({
    format: z.literal('erwb-handoff'),
    version: z.literal(1),
    caseId: z.string(),
    caseName: z.string(),
    head: z.string(),
    receipts: z.number().int(),
    exportedBy: z.object({ actorId: z.string(), keyId: z.string() }).strict(),
    exportedAt: z.string(),
    file: z.object({ bytes: z.number().int().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
  })
  .strict();
type Manifest = z.infer<typeof Manifest>;

const signedMessage = (manifest: Manifest) => Buffer.from(`${SIGNED_AS}${createHash('sha256').update(canonicalJson(manifest)).digest('hex')}`, 'utf8');

export function exportHandoff(ctx: ServiceContext, path: string): { path: string; bytes: number; manifest: Manifest } {
  const ch = 'case:handoffExport';
  if (existsSync(path)) throw conflict(`${ch}: ${path} already exists; choose another file name`);
  const key = signingKeyFor(ctx, ch);
  const work = mkdtempSync(join(tmpdir(), 'erwb-handoff-'));
  try {
    // A consistent snapshot of the whole case (WAL included), whatever else is writing.
    const snapshot = join(work, 'case.sqlite');
    ctx.db.prepare('VACUUM INTO ?').run(snapshot);
    const payload = readFileSync(snapshot);
    const meta = readCaseMeta(ctx.db);
    const head = chainHead(ctx.db);
    const manifest: Manifest = {
      format: 'erwb-handoff',
      version: 1,
      caseId: meta.caseId,
      caseName: meta.name,
      head: head.head,
      receipts: head.seq,
      exportedBy: { actorId: ctx.actor.actorId, keyId: key.keyId },
      exportedAt: ctx.now(),
      file: { bytes: payload.length, sha256: createHash('sha256').update(payload).digest('hex') },
    };
    const signature = key.sign(signedMessage(manifest));
    const header = Buffer.from(`${MAGIC}\n${JSON.stringify(manifest)}\n${signature}\n`, 'utf8');
    writeNewFile(path, ch, (put) => {
      put(header);
      put(payload);
    });
    return { path, bytes: header.length + payload.length, manifest };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Splits an archive into its manifest line, signature line and payload, or says what is wrong. */
function parseArchive(archive: Buffer, ch: string): { manifest: Manifest; signature: string; payload: Buffer } {
  const lines: string[] = [];
  let at = 0;
  for (let i = 0; i < 3; i++) {
    const nl = archive.indexOf(0x0a, at);
    if (nl < 0 || nl - at > 1_000_000) throw invalid(`${ch}: not a hand-off archive (its header ends early)`);
    lines.push(archive.subarray(at, nl).toString('utf8'));
    at = nl + 1;
  }
  if (lines[0] !== MAGIC) throw invalid(`${ch}: not a hand-off archive (expected "${MAGIC}" on its first line)`);
  let raw: unknown;
  try {
    raw = JSON.parse(lines[1]!);
  } catch {
    throw invalid(`${ch}: the manifest is not JSON`);
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) throw invalid(`${ch}: the manifest does not fit: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  return { manifest: parsed.data, signature: lines[2]!, payload: archive.subarray(at) };
}

export async function importHandoff(archivePath: string, target: string): Promise<{ path: string; manifest: Manifest; verified: string }> {
  const ch = 'case:handoffImport';
  if (!existsSync(archivePath) || !statSync(archivePath).isFile()) throw invalid(`${ch}: ${archivePath}: no such file`);
  if (existsSync(target)) throw conflict(`${ch}: ${target} already exists; choose another file name for the received case`);
  if (!existsSync(dirname(target))) throw invalid(`${ch}: the folder of ${target} does not exist`);
  const { manifest, signature, payload } = parseArchive(readFileSync(archivePath), ch);
  if (payload.length !== manifest.file.bytes) throw invalid(`${ch}: the case file in the archive has ${payload.length} bytes, the manifest says ${manifest.file.bytes}: the archive was cut or padded`);
  const sha = createHash('sha256').update(payload).digest('hex');
  if (sha !== manifest.file.sha256) throw invalid(`${ch}: the case file's SHA-256 is ${sha.slice(0, 12)}…, the manifest says ${manifest.file.sha256.slice(0, 12)}…: the archive was changed after it was signed`);
  const work = mkdtempSync(join(tmpdir(), 'erwb-handoff-in-'));
  try {
    const staged = join(work, `${randomUUID()}.case.sqlite`);
    writeFileSync(staged, payload, { mode: 0o600 });
    const verified = await verifyCaseFile(staged);
    if (verified.exitCode !== 0) throw invalid(`${ch}: the case in the archive does not verify: ${verified.summary}`);
    const db = openReader(staged);
    try {
      const meta = readCaseMeta(db);
      const head = chainHead(db);
      if (meta.caseId !== manifest.caseId || head.head !== manifest.head) {
        throw invalid(`${ch}: the manifest names case ${manifest.caseId} at ${manifest.head}, the file is case ${meta.caseId} at ${head.head}`);
      }
      // The exporter's key as the (just verified) chain registered it: no key from outside counts.
      const key = db.prepare('SELECT actor_id, public_key FROM actor_key WHERE key_id = ?').get(manifest.exportedBy.keyId) as { actor_id: string; public_key: string } | undefined;
      if (!key || key.actor_id !== manifest.exportedBy.actorId) {
        throw invalid(`${ch}: the archive is signed with key ${manifest.exportedBy.keyId}, which the case registers for no reviewer ${manifest.exportedBy.actorId}`);
      }
      if (!verifySignature(publicKeyObject(key.public_key), signedMessage(manifest), signature)) {
        throw invalid(`${ch}: the manifest's signature does not verify with ${manifest.exportedBy.actorId}'s key ${manifest.exportedBy.keyId}: the archive was changed or signed by someone else`);
      }
    } finally {
      db.close();
    }
    // Placed only now, and never over an existing file (link fails if the target appeared meanwhile).
    try {
      linkSync(staged, target);
    } catch (err) {
      if ((err as { code?: string }).code === 'EEXIST') throw conflict(`${ch}: ${target} already exists; choose another file name for the received case`);
      if ((err as { code?: string }).code !== 'EXDEV') throw err;
      writeNewFile(target, ch, (put) => put(payload));
    }
    return { path: target, manifest, verified: verified.summary.replace(basename(staged), basename(target)) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
