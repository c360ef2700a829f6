/**
 * The values of the computation language and their canonical text. A computation's recorded result
 * is `formatValue` of its value, and audit verify compares that text, so the format below is part
 * of the case file's meaning: change it only with a migration.
 */
import { formatRational, isWithinMagnitude, type Rational } from './rational';
import { formatClock, formatInstant, FIRST_INSTANT_MS, LAST_INSTANT_MS, MS_PER_DAY } from './time';
import { unit, type Dimension, type UnitName } from './units';

/** A dimensionless exact number; counts are numbers too. */
export interface NumberValue {
  readonly kind: 'number';
  readonly amount: Rational;
}

/** An exact amount of a unit; it keeps the unit it was written or converted in. */
export interface QuantityValue {
  readonly kind: 'quantity';
  readonly amount: Rational;
  readonly unit: UnitName;
}

/** A point in time: whole milliseconds since 1970-01-01T00:00:00Z. */
export interface InstantValue {
  readonly kind: 'instant';
  readonly ms: bigint;
}

/** A time of day in UTC, with no date: whole milliseconds since midnight. */
export interface ClockValue {
  readonly kind: 'clock';
  readonly ms: bigint;
}

export interface BooleanValue {
  readonly kind: 'boolean';
  readonly value: boolean;
}

export type Value = NumberValue | QuantityValue | InstantValue | ClockValue | BooleanValue;
export type TimeValue = InstantValue | ClockValue;

export const numberValue = (amount: Rational): NumberValue => ({ kind: 'number', amount });
export const quantityValue = (amount: Rational, unitName: UnitName): QuantityValue => ({ kind: 'quantity', amount, unit: unitName });
export const instantValue = (ms: bigint): InstantValue => ({ kind: 'instant', ms });
export const clockValue = (ms: bigint): ClockValue => ({ kind: 'clock', ms });
export const booleanValue = (value: boolean): BooleanValue => ({ kind: 'boolean', value });

export function dimensionOf(v: QuantityValue): Dimension {
  return unit(v.unit).dimension;
}

/**
 * Canonical text: a number as `formatRational` writes it (`2`, `0.125`, `1/3`), a quantity as
 * `<number> <unit>` in its own unit (`1.5 MiB`, `1/3 h`), an instant as `2026-03-01T03:10:00Z`,
 * a clock time as `03:10:00` (both with `.mmm` only when milliseconds are not zero), a boolean as
 * `true` / `false`.
 */
export function formatValue(v: Value): string {
  switch (v.kind) {
    case 'number':
      return formatRational(v.amount);
    case 'quantity':
      return `${formatRational(v.amount)} ${v.unit}`;
    case 'instant':
      return formatInstant(v.ms);
    case 'clock':
      return formatClock(v.ms);
    case 'boolean':
      return v.value ? 'true' : 'false';
  }
}

/** `a number`, `a data size (MB)`, `an instant`: how error messages name what they got. */
export function describeKind(v: Value): string {
  switch (v.kind) {
    case 'number':
      return 'a number';
    case 'quantity':
      return `a ${dimensionOf(v)} (${v.unit})`;
    case 'instant':
      return 'an instant';
    case 'clock':
      return 'a clock time';
    case 'boolean':
      return 'a boolean';
  }
}

/** Why `v` is outside what the language keeps (too many bits, outside the calendar or the day), or null. */
export function outOfRange(v: Value): string | null {
  switch (v.kind) {
    case 'number':
    case 'quantity':
      return isWithinMagnitude(v.amount) ? null : 'needs more than 512 bits to be exact';
    case 'instant':
      return v.ms >= FIRST_INSTANT_MS && v.ms <= LAST_INSTANT_MS ? null : 'falls outside the years 0000 to 9999';
    case 'clock':
      return v.ms >= 0n && v.ms < MS_PER_DAY ? null : 'leaves the day (00:00:00 to 23:59:59.999)';
    case 'boolean':
      return null;
  }
}
