import { createHash } from 'node:crypto';
import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import type { HomeScope } from '../../../shared/domain/schemas';
import type { Actor } from '../context';
import { canSee } from '../store/acl';

/**
 * Names chosen for new evidence and claims, without an existence oracle (issue 9.7).
 *
 * Ids are one key space for the whole case, so "that id is taken" would tell whoever asked that
 * something exists where they cannot look. A chosen name is therefore stored bare only where a
 * clash can only be with something its chooser can see: the item lies in the case's home scope
 * (declared at case:create) and the chooser's clearance covers that whole scope. Anywhere else the
 * name is qualified with the scope the item is created in, `<name>~<tenant>.<classification>`, so
 * it can only clash with items of that same scope, which everyone allowed to write there sees.
 * Which form a name gets depends only on the chooser, the item's scope and the home scope, never
 * on what else the case holds, so a taken-but-hidden name and a free one answer alike.
 */
export function scopedName(name: string, item: { tenant: string; classification: Classification }, chooser: Actor, home: HomeScope): string {
  return inHomeScope(item, home) && coversHomeScope(chooser, home) ? name : `${name}~${scopeQualifier(item)}`;
}

/** `<tenant>.<classification>`: the tenant as written when it is a short lower-case token, else a hash of it. */
export function scopeQualifier(item: { tenant: string; classification: Classification }): string {
  const tenant = /^[a-z0-9][a-z0-9_-]{0,31}$/.test(item.tenant)
    ? item.tenant
    : `H${createHash('sha256').update(item.tenant, 'utf8').digest('hex').slice(0, 12).toUpperCase()}`;
  return `${tenant}.${item.classification}`;
}

function inHomeScope(item: { tenant: string; classification: Classification }, home: HomeScope): boolean {
  return canSee(home, item);
}

function coversHomeScope(actor: Actor, home: HomeScope): boolean {
  const rankOk = CLASSIFICATIONS.indexOf(actor.maxClassification) >= CLASSIFICATIONS.indexOf(home.maxClassification);
  const tenantsOk = actor.tenants.includes('*') || (!home.tenants.includes('*') && home.tenants.every((t) => actor.tenants.includes(t)));
  return rankOk && tenantsOk;
}
