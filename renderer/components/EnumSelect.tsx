/** A select over one of the domain's enums (kinds, classifications, relations…), typed by it. */
export function EnumSelect<T extends string>({
  values,
  value,
  onChange,
  testId,
  label,
  ariaLabel,
}: {
  values: readonly T[];
  value: T;
  onChange: (value: T) => void;
  testId?: string;
  label?: (value: T) => string;
  /** Its name for assistive technology, where no <label> wraps it. */
  ariaLabel?: string;
}) {
  return (
    <select data-testid={testId} aria-label={ariaLabel} value={value} onChange={(e) => onChange(e.target.value as T)}>
      {values.map((v) => (
        <option key={v} value={v}>
          {label ? label(v) : v}
        </option>
      ))}
    </select>
  );
}
