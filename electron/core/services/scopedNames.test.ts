import { describe, expect, it } from 'vitest';
import type { HomeScope } from '../../../shared/domain/schemas';
import { RevisionId } from '../../../shared/domain/schemas';
import type { Actor } from '../context';
import { scopedName, scopeQualifier } from './scopedNames';

const home: HomeScope = { tenants: ['acme'], maxClassification: 'confidential' };
const actor = (tenants: string[], maxClassification: Actor['maxClassification']): Actor => ({ actorId: 'a', displayName: 'A', role: 'analyst', tenants, maxClassification });

describe('scopedName', () => {
  it('keeps a name as chosen inside the home scope, by a reviewer cleared for all of it', () => {
    expect(scopedName('ev-auth-001', { tenant: 'acme', classification: 'internal' }, actor(['acme'], 'confidential'), home)).toBe('ev-auth-001');
    expect(scopedName('ev-auth-001', { tenant: 'acme', classification: 'confidential' }, actor(['*'], 'restricted'), home)).toBe('ev-auth-001');
  });

  it('qualifies a name chosen by a reviewer who cannot see all of the home scope, even for an item inside it', () => {
    expect(scopedName('ev-1', { tenant: 'acme', classification: 'internal' }, actor(['acme'], 'internal'), home)).toBe('ev-1~acme.internal');
    expect(scopedName('ev-1', { tenant: 'acme', classification: 'public' }, actor(['globex', 'acme'], 'public'), home)).toBe('ev-1~acme.public');
  });

  it('qualifies every name outside the home scope, whoever chooses it', () => {
    expect(scopedName('ev-hr-001', { tenant: 'acme', classification: 'restricted' }, actor(['*'], 'restricted'), home)).toBe('ev-hr-001~acme.restricted');
    expect(scopedName('ev-1', { tenant: 'globex', classification: 'public' }, actor(['*'], 'restricted'), home)).toBe('ev-1~globex.public');
  });

  it('a home scope of every tenant is covered only by a reviewer of every tenant', () => {
    const whole: HomeScope = { tenants: ['*'], maxClassification: 'restricted' };
    expect(scopedName('n', { tenant: 'acme', classification: 'public' }, actor(['acme', 'globex'], 'restricted'), whole)).toBe('n~acme.public');
    expect(scopedName('n', { tenant: 'acme', classification: 'public' }, actor(['*'], 'restricted'), whole)).toBe('n');
  });

  it('writes a tenant that is not a short lower-case token as a hash, so every scope has its own qualifier', () => {
    const q = scopeQualifier({ tenant: 'Initech Ltd', classification: 'internal' });
    expect(q).toMatch(/^H[0-9A-F]{12}\.internal$/);
    expect(q).not.toBe(scopeQualifier({ tenant: 'Initech  Ltd', classification: 'internal' }));
    expect(scopeQualifier({ tenant: 'initech', classification: 'internal' })).toBe('initech.internal');
  });

  it('a qualified name is a valid revision id on every channel', () => {
    for (const tenant of ['acme', 'Initech Ltd', 'a'.repeat(32)]) {
      const id = `${scopedName('e'.repeat(120), { tenant, classification: 'restricted' }, actor(['*'], 'restricted'), home)}@123456789`;
      expect(RevisionId.safeParse(id).success, id).toBe(true);
    }
  });
});
