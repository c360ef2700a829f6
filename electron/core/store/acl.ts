import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import type { Actor } from '../context';

/** Classifications at or below the actor's clearance, lowest first. */
export function visibleClassifications(max: Classification): Classification[] {
  return CLASSIFICATIONS.slice(0, CLASSIFICATIONS.indexOf(max) + 1);
}

/**
 * The SQL filter every read of evidence or claims goes through. ACL is a hard filter applied in
 * the query itself, so nothing outside the clearance is ever loaded, counted or described.
 */
export function aclFilter(actor: Actor, alias: string, options: { useIndex?: boolean } = {}): { sql: string; params: string[] } {
  const classes = visibleClassifications(actor.maxClassification);
  // A unary + keeps SQLite from choosing the ACL index, for paged reads that must walk in key
  // order and stop after one page instead of collecting and sorting every visible row.
  const col = (name: string) => (options.useIndex === false ? `+${alias}.${name}` : `${alias}.${name}`);
  const parts = [`${col('classification')} IN (${classes.map(() => '?').join(', ')})`];
  const params: string[] = [...classes];
  if (!actor.tenants.includes('*')) {
    if (actor.tenants.length === 0) return { sql: '0', params: [] };
    parts.push(`${col('tenant')} IN (${actor.tenants.map(() => '?').join(', ')})`);
    params.push(...actor.tenants);
  }
  return { sql: parts.join(' AND '), params };
}

export function canSee(actor: Pick<Actor, 'tenants' | 'maxClassification'>, item: { tenant: string; classification: Classification }): boolean {
  const rankOk = CLASSIFICATIONS.indexOf(item.classification) <= CLASSIFICATIONS.indexOf(actor.maxClassification);
  return rankOk && (actor.tenants.includes('*') || actor.tenants.includes(item.tenant));
}

/** Cleared for every tenant at the highest classification: no row is outside this actor's view. */
export function seesEverything(actor: Pick<Actor, 'tenants' | 'maxClassification'>): boolean {
  return actor.tenants.includes('*') && actor.maxClassification === CLASSIFICATIONS[CLASSIFICATIONS.length - 1];
}
