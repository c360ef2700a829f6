import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateKeyPairSync, sign, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../shared/domain/canonical';
import { verifyCaseFile } from '../audit/verifyFile';
import { ensureDemoCase } from '../demo';
import { dispatch } from '../dispatch';
import { handlers } from '../handlers';
import { Session, type Seat } from '../session';

/** Issue 10.6: a case moves between offline machines as one signed archive, checked before it opens. */
const SEED = resolve(import.meta.dirname, '..', '..', '..', 'resources', 'demo-case.json');
let dir: string;
let seat: Seat;
let archive: string;
let receiving: Seat;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erwb-handoff-'));
  seat = new Session({ userDataDir: join(dir, 'sender'), log: () => {} }).seat();
  seat.open(await ensureDemoCase(SEED, join(dir, 'sender')));
  seat.unlock('priya.s', 'demo-priya-2231');
  archive = join(dir, 'ir-2231.erwb');
  const out = await dispatch(handlers, seat, 'case:handoffExport', { path: archive });
  if (!out.ok) throw new Error(out.error.message);
  // Another machine: its own user data, no keys of this case, nothing open.
  receiving = new Session({ userDataDir: join(dir, 'receiver'), log: () => {} }).seat();
}, 60_000);
afterAll(() => {
  seat.close();
  receiving.close();
  rmSync(dir, { recursive: true, force: true });
});

const receive = (archivePath: string, name: string) => dispatch(handlers, receiving, 'case:handoffImport', { archive: archivePath, path: join(dir, name) });

/** The archive with its header lines and payload, to tamper with. */
function split(path: string) {
  const buf = readFileSync(path);
  const a = buf.indexOf(0x0a);
  const b = buf.indexOf(0x0a, a + 1);
  const c = buf.indexOf(0x0a, b + 1);
  return { magic: buf.subarray(0, a).toString(), manifest: JSON.parse(buf.subarray(a + 1, b).toString()) as Record<string, unknown> & { file: { sha256: string; bytes: number } }, signature: buf.subarray(b + 1, c).toString(), payload: Buffer.from(buf.subarray(c + 1)) };
}
const join3 = (p: ReturnType<typeof split>, name: string) => {
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([Buffer.from(`${p.magic}\n${JSON.stringify(p.manifest)}\n${p.signature}\n`), p.payload]));
  return path;
};

describe('case hand-off', () => {
  it('holds no private key, and the received case verifies and opens on a machine without any of its keys', async () => {
    const bytes = readFileSync(archive);
    expect(bytes.includes(Buffer.from('PRIVATE KEY'))).toBe(false);
    const { manifest } = split(archive);
    expect(manifest).toMatchObject({ format: 'erwb-handoff', exportedBy: { actorId: 'priya.s' } });
    const got = await receive(archive, 'received.case.sqlite');
    expect(got.ok ? got.value : got.error).toMatchObject({ path: join(dir, 'received.case.sqlite') });
    expect((await verifyCaseFile(join(dir, 'received.case.sqlite'))).exitCode).toBe(0);
    const opened = await dispatch(handlers, receiving, 'case:open', { path: join(dir, 'received.case.sqlite') });
    expect(opened.ok ? (opened.value as { name: string }).name : opened.error).toMatch(/Account takeover/);
  });

  const refusals: [string, (p: ReturnType<typeof split>) => void, RegExp][] = [
    ['one byte of the case file changed', (p) => void (p.payload[5000] = p.payload[5000]! ^ 0x01), /SHA-256 is .* the manifest says .* changed after it was signed/],
    ['the case file cut short', (p) => void (p.payload = p.payload.subarray(0, p.payload.length - 10)), /the archive was cut or padded/],
    ['the manifest edited (another exporter named)', (p) => void (p.manifest.caseName = 'Something else'), /signature does not verify/],
    ['the signature replaced', (p) => void (p.signature = Buffer.alloc(64, 7).toString('base64')), /signature does not verify/],
    ['not an archive', (p) => void (p.magic = 'PK\u0003\u0004'), /not a hand-off archive/],
  ];
  it.each(refusals)('%s: refused with the reason, nothing written', async (_what, tamper, expected) => {
    const p = split(archive);
    tamper(p);
    const path = join3(p, `tampered-${Math.random().toString(36).slice(2)}.erwb`);
    const target = `tampered-${Math.random().toString(36).slice(2)}.case.sqlite`;
    const got = await receive(path, target);
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error.message).toMatch(expected);
    expect(existsSync(join(dir, target))).toBe(false);
  });

  it('a case edited inside the archive and re-hashed, signed by a key the case never registered, is refused', async () => {
    const p = split(archive);
    p.payload[p.payload.length - 100] = p.payload[p.payload.length - 100]! ^ 0x01;
    p.manifest.file.sha256 = createHash('sha256').update(p.payload).digest('hex');
    const { privateKey } = generateKeyPairSync('ed25519');
    p.signature = sign(null, Buffer.from(`erwb-handoff:v1:${createHash('sha256').update(canonicalJson(p.manifest)).digest('hex')}`), privateKey).toString('base64');
    const got = await receive(join3(p, 'resigned.erwb'), 'resigned.case.sqlite');
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error.message).toMatch(/does not verify|signature does not verify/);
    expect(existsSync(join(dir, 'resigned.case.sqlite'))).toBe(false);
  });

  it('never overwrites a file, and refuses an archive path that is not a file', async () => {
    const got = await receive(archive, 'received.case.sqlite');
    expect(got.ok ? null : got.error.code).toBe('CONFLICT');
    const missing = await dispatch(handlers, receiving, 'case:handoffImport', { archive: join(dir, 'nope.erwb'), path: join(dir, 'x.case.sqlite') });
    expect(missing.ok ? null : missing.error.message).toMatch(/no such file/);
  });
});
