import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bandBuckets,
  bandHitProbability,
  bandKeys,
  COPY_BANDS,
  COPY_HASHES,
  COPY_MIN_JACCARD,
  copySignature,
  decodeSignature,
  encodeSignature,
  judgeCopy,
  judgeCopyBetween,
  MIN_COPY_SHINGLES,
  type CopySignature,
} from './copies';
import { copyShingles } from './copyShingles';

// Written for these tests in the style of a vendor malware write-up.
const REPORT =
  'The LANTERN backdoor communicates with its command and control server over HTTPS on port 8443. ' +
  'It collects the host name, the logged-on user and the list of running processes before the first beacon. ' +
  'Operators can upload and download files, start an interactive reverse shell and remove the implant. ' +
  'Persistence is achieved through a scheduled task named UpdateCheck that runs every thirty minutes. ' +
  'Samples observed in March were signed with a stolen certificate issued to a small accounting firm.';

const OTHER =
  'The finance team reported a phishing wave that imitated the quarterly payroll notice. ' +
  'Recipients were asked to confirm their bank details on a look-alike portal hosted in a cloud bucket. ' +
  'Mail filtering blocked most messages, but twelve users submitted credentials before the page was taken down. ' +
  'Password resets were forced for the affected accounts and the sender domain was added to the block list.';

const judge = (a: string, b: string) => judgeCopy(copySignature(a), copySignature(b));
const sentencesOf = (text: string) => text.split(/(?<=\.)\s+/);

describe('copySignature', () => {
  it('is deterministic and pinned: the same text gives the same signature on every machine', () => {
    const sig = copySignature(REPORT);
    expect(copySignature(REPORT)).toEqual(sig);
    expect(sig.minhash).toHaveLength(COPY_HASHES);
    expect(sig.minhash.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff)).toBe(true);
    // Pinned so a change to normalisation, hashing or seeds cannot pass unnoticed: stored
    // signatures would silently stop matching new ones. Bump the "mh1" scheme if this must change.
    expect(sig.shingles).toBe(44);
    expect(sig.minhash.slice(0, 3)).toEqual([25077883, 388880974, 272852617]);
    expect(bandKeys(sig).slice(0, 3)).toEqual(PINNED_BAND_KEYS);
  });

  it('counts distinct word pairs, ignoring stop words, case and punctuation', () => {
    expect(copySignature('The backdoor beacons; the BACKDOOR beacons!').shingles).toBe(1);
    expect(copySignature('').shingles).toBe(0);
    expect(copySignature('the of and').shingles).toBe(0);
  });

  it('folds Unicode compatibility forms, invisible characters and markup', () => {
    const plain = copySignature(REPORT);
    expect(copySignature(REPORT.replace('LANTERN', 'ＬＡＮＴＥＲＮ'))).toEqual(plain);
    expect(copySignature(REPORT.replace(/backdoor/g, 'back\u200Bdoor'))).toEqual(plain);
    expect(copySignature(`<html><body>${sentencesOf(REPORT).map((s) => `<p>${s}</p>`).join('\n')}</body></html>`)).toEqual(plain);
  });

  it('keeps negation: "not malicious" is different evidence from "malicious"', () => {
    expect(copyShingles('The attachment is malicious and was sent by the contractor.')).not.toEqual(
      copyShingles('The attachment is not malicious and was sent by the contractor.'),
    );
  });
});

describe('judgeCopy', () => {
  it('identical text is the same content', () => {
    const j = judge(REPORT, REPORT);
    expect(j).toMatchObject({ probableCopy: true, jaccard: 1, containment: 1 });
    expect(j.reason).toMatch(/^Same content/);
  });

  it('mail headers and forwarding markers are the envelope, not the content', () => {
    const forwarded = `-----Forwarded message-----\nFrom: vendor-feed\nDate: 2024-03-02\nSubject: weekly digest\n\nFwd: ${REPORT}`;
    expect(copySignature(forwarded)).toEqual(copySignature(REPORT));
  });

  it('the same text under a different preamble is a copy', () => {
    const prefaced = `FWD: report excerpt — Originally published by a partner CERT on 2 March. ${REPORT}`;
    const j = judge(REPORT, prefaced);
    expect(j.probableCopy, j.reason).toBe(true);
    expect(j.containment).toBeGreaterThan(0.9);
    expect(j.reason).toMatch(/^Near-same content: about \d+% of the shorter text's word pairs also appear in the other \(estimated\)\.$/);
  });

  it('a truncation keeping 60–90% is a copy: the shorter text is contained in the longer', () => {
    const words = REPORT.split(' ');
    for (const keep of [0.6, 0.75, 0.9]) {
      const j = judge(REPORT, words.slice(0, Math.round(words.length * keep)).join(' '));
      expect(j.probableCopy, `${keep}: ${j.reason}`).toBe(true);
      expect(j.containment).toBeGreaterThan(0.85);
    }
  });

  it('re-ordered sentences give exactly the same shingles', () => {
    const reordered = [...sentencesOf(REPORT)].reverse().join(' ');
    expect(copyShingles(reordered)).toEqual(copyShingles(REPORT));
    expect(judge(REPORT, reordered).probableCopy).toBe(true);
  });

  it('a light paraphrase (inflection, fillers, swapped neighbours) stays a copy', () => {
    const paraphrased = REPORT.replace('communicates', 'communicated')
      .replace('upload and download', 'download and upload')
      .replace('Operators can', 'Operators can also')
      .replace('the list of running processes', 'a list of the running processes');
    expect(judge(REPORT, paraphrased).probableCopy).toBe(true);
  });

  it('clearly different texts are not copies', () => {
    const j = judge(REPORT, OTHER);
    expect(j.probableCopy).toBe(false);
    expect(j.containment).toBeLessThan(0.25);
    expect(j.reason).toMatch(/^Different content/);
  });

  it('sharing one boilerplate sentence is not a copy', () => {
    const shared = sentencesOf(REPORT)[0]!;
    const j = judge(REPORT, `${shared} ${OTHER}`);
    expect(j.probableCopy).toBe(false);
  });

  it(`short texts are never copies: fewer than ${MIN_COPY_SHINGLES} word pairs on the shorter side`, () => {
    const note = 'Beacon to 10.1.2.3 observed from host ws-12.';
    const j = judge(note, note);
    expect(j.jaccard).toBe(1);
    expect(j.probableCopy).toBe(false);
    expect(j.reason).toMatch(/^Too short to call a copy/);
    expect(judge(note, `${note} ${REPORT}`).probableCopy).toBe(false);
  });

  it('a short quote inside a long text is an excerpt, not a copy (the band index could not find it)', () => {
    const long = `${REPORT} ${OTHER} ${OTHER.replace(/the/g, 'a')} ${REPORT.toUpperCase().replace(/ /g, ' x ')}`;
    const j = judge(sentencesOf(REPORT).slice(0, 2).join(' '), long);
    expect(j.probableCopy).toBe(false);
    expect(j.reason).toMatch(/^Excerpt, not a copy/);
  });

  it('a text with no words is not compared', () => {
    expect(judge('', REPORT)).toMatchObject({ probableCopy: false, jaccard: 0, containment: 0 });
  });

  it('is symmetric', () => {
    fc.assert(
      fc.property(fc.constantFrom(REPORT, OTHER, ...sentencesOf(REPORT)), fc.constantFrom(REPORT, OTHER, ...sentencesOf(OTHER)), (a, b) => {
        expect(judge(a, b)).toEqual(judge(b, a));
      }),
    );
  });

  it('refuses a signature of the wrong shape', () => {
    const bad: CopySignature = { shingles: 3, minhash: [1, 2, 3] };
    expect(() => judgeCopy(bad, copySignature(REPORT))).toThrow(/judgeCopy: not a 42x3 copy signature/);
    // Each entry point names itself, whichever argument is wrong.
    expect(() => judgeCopy(copySignature(REPORT), bad)).toThrow(/^judgeCopy: not a 42x3 copy signature \(3 values, 3 shingles\)/);
    expect(() => bandKeys(bad)).toThrow(/^bandKeys: not a 42x3 copy signature/);
    expect(() => encodeSignature(bad)).toThrow(/^encodeSignature: not a 42x3 copy signature/);
    expect(() => bandKeys({ shingles: -1, minhash: copySignature(REPORT).minhash })).toThrow(/^bandKeys: not a 42x3 copy signature \(126 values, -1 shingles\)/);
  });

  it('calls a copy at its thresholds exactly: 8 word pairs, 60% containment', () => {
    const minhash = Array.from({ length: 126 }, (_, i) => i);
    expect(judgeCopy({ shingles: 8, minhash }, { shingles: 8, minhash }).probableCopy).toBe(true);
    expect(judgeCopy({ shingles: 7, minhash }, { shingles: 7, minhash })).toMatchObject({ probableCopy: false, reason: expect.stringMatching(/^Too short to call a copy: the shorter text has 7 distinct word pairs/) });
    // 54 of 126 minima agree: J = 3/7, containment 2J/(1+J) = 0.6 exactly, at the threshold.
    const fewer = minhash.map((v, i) => (i < 54 ? v : v + 1000));
    const judged = judgeCopy({ shingles: 100, minhash }, { shingles: 100, minhash: fewer });
    expect(judged.containment).toBe(0.6);
    expect(judged).toMatchObject({ probableCopy: true, reason: expect.stringMatching(/^Near-same content/) });
    // 18 of 126: J = 1/7, containment 0.25 exactly: shared passages, not merely different content.
    const quarter = judgeCopy({ shingles: 100, minhash }, { shingles: 100, minhash: minhash.map((v, i) => (i < 18 ? v : v + 1000)) });
    expect(quarter.containment).toBe(0.25);
    expect(quarter).toMatchObject({ probableCopy: false, reason: expect.stringMatching(/^Shares some passages but is not a copy: about 25% .*, below the 60% needed\.$/) });
    const less = judgeCopy({ shingles: 100, minhash }, { shingles: 100, minhash: minhash.map((v, i) => (i < 17 ? v : v + 1000)) });
    expect(less).toMatchObject({ probableCopy: false, reason: expect.stringMatching(/^Different content: only about 2\d% /) });
  });

  it('tells an excerpt from an overlap at half the length, and the same content from near-same', () => {
    const minhash = Array.from({ length: 126 }, (_, i) => i);
    // 32 of 126 agree (J ≈ 0.25, under 0.4) between texts of 50 and 100 word pairs: containment over 0.6.
    const some = minhash.map((v, i) => (i < 32 ? v : v + 1000));
    expect(judgeCopy({ shingles: 50, minhash }, { shingles: 100, minhash: some })).toMatchObject({ probableCopy: false, reason: expect.stringMatching(/^Overlapping, not a copy: about 6\d% .*, but only 25% of the word pairs of both texts together are shared \(40% needed\)\.$/) });
    expect(judgeCopy({ shingles: 49, minhash }, { shingles: 100, minhash: some }).reason).toMatch(/^Excerpt, not a copy: .* only about 49% as long as the other/);
    // Every minimum agrees, but one text has a word pair more: near-same, not the same.
    expect(judgeCopy({ shingles: 100, minhash }, { shingles: 101, minhash }).reason).toMatch(/^Near-same content: /);
    expect(judgeCopy({ shingles: 100, minhash }, { shingles: 100, minhash }).reason).toMatch(/^Same content: /);
  });

  it('estimates containment from the agreeing minima and both texts\' sizes, and does not compare an empty text', () => {
    const minhash = Array.from({ length: 126 }, (_, i) => i);
    const half = minhash.map((v, i) => (i % 2 === 0 ? v : v + 1000));
    // 63 of 126 minima agree: J = 0.5, |A∩B| = J·(|A|+|B|)/(1+J) = 0.5·200/1.5, over the shorter text's 100.
    const judged = judgeCopy({ shingles: 100, minhash }, { shingles: 100, minhash: half });
    expect(judged.jaccard).toBe(0.5);
    expect(judged.containment).toBeCloseTo(2 / 3, 12);
    expect(judgeCopy({ shingles: 0, minhash }, { shingles: 100, minhash })).toEqual({ probableCopy: false, jaccard: 0, containment: 0, reason: 'Not compared: one text has no words to compare.' });
  });
});

describe('bandKeys', () => {
  it(`gives ${COPY_BANDS} short keys, one per band`, () => {
    const keys = bandKeys(copySignature(REPORT));
    expect(keys).toHaveLength(COPY_BANDS);
    expect(new Set(keys).size).toBe(COPY_BANDS);
    for (const [band, key] of keys.entries()) expect(key).toMatch(new RegExp(`^b${String(band).padStart(2, '0')}:[0-9a-f]{8}$`));
  });

  it('near-copies share a band key; unrelated texts share none', () => {
    const shared = (a: string, b: string) => {
      const keys = new Set(bandKeys(copySignature(a)));
      return bandKeys(copySignature(b)).filter((k) => keys.has(k)).length;
    };
    const words = REPORT.split(' ');
    expect(shared(REPORT, `From: vendor-feed\nDate: 2024-03-02\n\n${REPORT}`)).toBeGreaterThan(0);
    expect(shared(REPORT, words.slice(0, Math.round(words.length * 0.7)).join(' '))).toBeGreaterThan(0);
    expect(shared(REPORT, [...sentencesOf(REPORT)].reverse().join(' '))).toBe(COPY_BANDS);
    expect(shared(REPORT, OTHER)).toBe(0);
  });

  it('a pair at the Jaccard floor of a verdict is found by the index with high probability', () => {
    expect(bandHitProbability(COPY_MIN_JACCARD)).toBeGreaterThan(0.93);
    expect(bandHitProbability(0.6)).toBeGreaterThan(0.9999);
    expect(bandHitProbability(0.05)).toBeLessThan(0.01);
  });
});

describe('bandBuckets', () => {
  it('gives band b the integer b·2³² plus its band key\'s 32-bit hash', () => {
    const sig = copySignature(REPORT);
    const keys = bandKeys(sig);
    const buckets = bandBuckets(sig);
    expect(buckets).toHaveLength(COPY_BANDS);
    for (const [band, bucket] of buckets.entries()) {
      expect(Math.floor(bucket / 2 ** 32)).toBe(band);
      expect((bucket % 2 ** 32).toString(16).padStart(8, '0')).toBe(keys[band]!.slice(4));
    }
  });
});

describe('encodeSignature / decodeSignature', () => {
  it('round-trips', () => {
    for (const text of [REPORT, OTHER, '']) {
      const sig = copySignature(text);
      const encoded = encodeSignature(sig);
      expect(encoded).toMatch(/^mh1\.42x3\.\d+\.[A-Za-z0-9_-]+$/);
      expect(decodeSignature(encoded)).toEqual(sig);
    }
  });

  it('round-trips any values', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: COPY_HASHES, maxLength: COPY_HASHES }), (shingles, minhash) => {
        expect(decodeSignature(encodeSignature({ shingles, minhash }))).toEqual({ shingles, minhash });
      }),
    );
  });

  it.each([
    ['garbage', 'not a signature', /dot-separated parts, not 4/],
    ['another scheme', encodeSignature(copySignature(REPORT)).replace('mh1.42x3', 'mh1.32x4'), /scheme "mh1.32x4" is not this build's/],
    ['a bad shingle count', encodeSignature(copySignature(REPORT)).replace(/^mh1\.42x3\.\d+/, 'mh1.42x3.-4'), /shingle count "-4"/],
    ['a truncated body', encodeSignature(copySignature(REPORT)).slice(0, -4), /body is not 672 base64url characters/],
    ['a bad character', `${encodeSignature(copySignature(REPORT)).slice(0, -1)}=`, /body is not 672 base64url characters/],
    // What is quoted back is cut short: a pasted document is not echoed whole into the error.
    ['a long malformed text', `x${'y'.repeat(200)}`, /malformed signature "xyyyyyyyyyyyyyyyyyyyyyyy…" \(1 dot-separated parts, not 4\)/],
    ['a long shingle count', encodeSignature(copySignature(REPORT)).replace(/^mh1\.42x3\.\d+/, `mh1.42x3.${'9'.repeat(40)}`), /shingle count "99999999999999999999" is not/],
  ])('refuses %s with a clear error', (_name, text, message) => {
    expect(() => decodeSignature(text)).toThrow(message);
    expect(() => decodeSignature(text)).toThrow(/^decodeSignature: .*recompute it with copySignature/);
  });
});

const PINNED_BAND_KEYS = ['b00:bdc9a76a', 'b01:e322e393', 'b02:4168972c'];

describe('judgeCopyBetween: reports by wording, machine records only when identical', () => {
  const edr = (host: string, minute: number) =>
    `EDR on ${host} recorded rclone.exe started by svc-backup at 03:${minute} UTC. The process opened 412 files under D:\\Finance and held a TLS session to 45.137.21.9 for 31 minutes.`;
  const party = (kind: string, content: string) => ({ kind, contentSha256: `sha-of:${content}`, signature: copySignature(content) });

  it('two events from one EDR template on two hosts are two observations', () => {
    const a = party('telemetry', edr('HOST-FS01', 9));
    const b = party('telemetry', edr('HOST-FS02', 11));
    expect(judgeCopy(a.signature, b.signature).probableCopy).toBe(true);
    const verdict = judgeCopyBetween(a, b);
    expect(verdict.probableCopy).toBe(false);
    expect(verdict.reason).toContain('separate observations unless identical');
  });

  it.each(['telemetry', 'log_record', 'forensic_artifact', 'tool_result'])('a %s is a machine record: near-same is not a copy', (kind) => {
    const a = party(kind, edr('HOST-FS01', 9));
    const b = party('vendor_report', edr('HOST-FS02', 11));
    expect(judgeCopy(a.signature, b.signature).probableCopy).toBe(true);
    expect(judgeCopyBetween(a, b).probableCopy).toBe(false);
    expect(judgeCopyBetween(b, a).probableCopy).toBe(false);
  });

  it('the same record exported twice is a copy, and so is a re-headed report', () => {
    const twice = judgeCopyBetween(party('log_record', edr('HOST-FS01', 9)), party('log_record', edr('HOST-FS01', 9)));
    expect(twice).toMatchObject({ probableCopy: true, jaccard: 1, containment: 1 });
    expect(twice.reason).toBe('Identical content: the same machine record, exported twice.');
    const report = edr('HOST-FS01', 9);
    expect(judgeCopyBetween(party('vendor_report', report), party('threat_intel', `Subject: FWD\n\n${report}`)).probableCopy).toBe(true);
    // A report quoting a machine record word for word but with a header is not the same record.
    expect(judgeCopyBetween(party('telemetry', report), party('vendor_report', `Subject: FWD\n\n${report}`)).probableCopy).toBe(false);
  });
});
