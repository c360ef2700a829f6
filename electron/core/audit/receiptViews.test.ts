import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAsAttacker } from '../../testing/tamper';
import { createTestCase, type TestCase } from '../../testing/testCase';
import type { Actor } from '../context';
import { formatHead, listReceipts, parseHead } from './receiptViews';
import { redactVerification } from './redact';
import { verifyChain } from './verify';

/** The chain head a reviewer pastes into a ticket, and receipts as the audit view lists them. */

const HASH = 'ab'.repeat(32);

describe('parseHead', () => {
  it('reads back what formatHead writes', () => {
    expect(parseHead(formatHead(0, HASH))).toEqual({ seq: 0, hash: HASH });
    expect(parseHead(formatHead(1207, HASH))).toEqual({ seq: 1207, hash: HASH });
  });

  it.each([
    ['text before the head', `see erwb-head:12:${HASH}`],
    ['text after the head', `erwb-head:12:${HASH} (checked)`],
    ['a leading zero', `erwb-head:012:${HASH}`],
    ['no seq', `erwb-head::${HASH}`],
    ['a short hash', `erwb-head:12:${HASH.slice(2)}`],
    ['an upper-case hash', `erwb-head:12:${HASH.toUpperCase()}`],
  ])('refuses %s', (_what, head) => {
    expect(parseHead(head)).toBeNull();
  });
});

const OUTSIDER: Actor = { actorId: 'eve', displayName: 'Eve', role: 'analyst', tenants: ['globex'], maxClassification: 'public' };

describe('listReceipts on a tampered file', () => {
  let tc: TestCase;
  beforeEach(async () => {
    tc = await createTestCase();
  });
  afterEach(() => tc.cleanup());

  it('shows targets, body and digests that are not JSON as they are, instead of failing the list', () => {
    tc.session.session.close();
    // The columns' CHECK (json_valid) and the append-only trigger keep the workbench from writing this; an editor drops them.
    const db = openAsAttacker(tc.casePath);
    try {
      db.prepare(`UPDATE audit_receipt SET targets = 'case:x, admin', body = '{"cut off', artifact_digests = 'none' WHERE seq = 1`).run();
      const [first] = listReceipts(db, 10).slice(-1);
      expect(first).toMatchObject({ seq: 1, targets: ['(not JSON) case:x, admin'], body: { notJson: '{"cut off' }, artifacts: {} });
      // Told to a reviewer outside the clearance, the break is named as it is: nothing in it to withhold.
      const broken = verifyChain(db);
      expect(broken.firstBroken).toMatchObject({ seq: 1 });
      expect(redactVerification(db, OUTSIDER, broken)).toEqual(broken);
    } finally {
      db.close();
    }
  });

  it('shows at most 200 characters of targets and 2,000 of a body that are not JSON (the list stays readable whatever was written)', () => {
    tc.session.session.close();
    const db = openAsAttacker(tc.casePath);
    try {
      db.prepare(`UPDATE audit_receipt SET targets = ?, body = ? WHERE seq = 1`).run('t'.repeat(5_000), 'b'.repeat(50_000));
      const [first] = listReceipts(db, 10).slice(-1);
      expect(first?.targets).toEqual([`(not JSON) ${'t'.repeat(200)}`]);
      expect(first?.body).toEqual({ notJson: 'b'.repeat(2_000) });
    } finally {
      db.close();
    }
  });
});
