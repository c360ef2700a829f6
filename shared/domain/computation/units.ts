/**
 * Units of the two dimensions a computation knows. Every unit is an exact whole number of its
 * dimension's base unit (bytes, milliseconds), so conversions are exact rational multiplications.
 * Lookups go through a Map: a name like `constructor` is simply not a unit.
 */
import { div, mul, integer, type Rational } from './rational';

export type Dimension = 'data size' | 'duration';

export const UNIT_NAMES = ['B', 'KB', 'MB', 'GB', 'TB', 'KiB', 'MiB', 'GiB', 'TiB', 'ms', 's', 'min', 'h', 'd'] as const;
export type UnitName = (typeof UNIT_NAMES)[number];

export interface Unit {
  readonly name: UnitName;
  readonly dimension: Dimension;
  /** How many bytes or milliseconds one of this unit is. */
  readonly base: bigint;
}

const DEFINITIONS: readonly Unit[] = [
  { name: 'B', dimension: 'data size', base: 1n },
  { name: 'KB', dimension: 'data size', base: 10n ** 3n },
  { name: 'MB', dimension: 'data size', base: 10n ** 6n },
  { name: 'GB', dimension: 'data size', base: 10n ** 9n },
  { name: 'TB', dimension: 'data size', base: 10n ** 12n },
  { name: 'KiB', dimension: 'data size', base: 2n ** 10n },
  { name: 'MiB', dimension: 'data size', base: 2n ** 20n },
  { name: 'GiB', dimension: 'data size', base: 2n ** 30n },
  { name: 'TiB', dimension: 'data size', base: 2n ** 40n },
  { name: 'ms', dimension: 'duration', base: 1n },
  { name: 's', dimension: 'duration', base: 1000n },
  { name: 'min', dimension: 'duration', base: 60_000n },
  { name: 'h', dimension: 'duration', base: 3_600_000n },
  { name: 'd', dimension: 'duration', base: 86_400_000n },
];

const UNITS: ReadonlyMap<string, Unit> = new Map(DEFINITIONS.map((u) => [u.name, u]));

export function findUnit(name: string): Unit | undefined {
  return UNITS.get(name);
}

export function unit(name: UnitName): Unit {
  const found = UNITS.get(name);
  if (!found) throw new RangeError(`unit: ${name} is not a unit`);
  return found;
}

export function convertAmount(amount: Rational, from: UnitName, to: UnitName): Rational {
  if (from === to) return amount;
  return div(mul(amount, integer(unit(from).base)), integer(unit(to).base));
}

/** In bytes or milliseconds: how two quantities of one dimension are compared. */
export function inBaseUnits(amount: Rational, name: UnitName): Rational {
  return mul(amount, integer(unit(name).base));
}

/** `did you mean "MB"?` for a unit typed in the wrong case, else the list of units. */
export function unitHint(name: string): string {
  const close = UNIT_NAMES.find((u) => u.toLowerCase() === name.toLowerCase());
  if (close) return `did you mean "${close}"? (units are case-sensitive)`;
  return `the units are: ${UNIT_NAMES.join(', ')}`;
}
