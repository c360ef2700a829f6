import { useEffect, useId, useState } from 'react';
import type { LifecycleState } from '../../shared/domain/enums';
import { call } from '../bridge';

/** Matches offered as one types: the first few from the store, never the whole case. */
const OFFERED = 20;
const QUIET_MS = 150;

interface Option {
  value: string;
  label: string;
}

/**
 * The options matching `text`, asked of a list channel once typing pauses. A failed read offers
 * nothing and says so; the typed id still goes to the channel, which judges it.
 */
function useOptions(text: string, read: (text: string) => Promise<Option[]>): { options: Option[]; error: string | null } {
  const [options, setOptions] = useState<Option[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      read(text.trim())
        .then((found) => {
          if (!current) return;
          setOptions(found);
          setError(null);
        })
        .catch((err: unknown) => {
          if (!current) return;
          setOptions([]);
          setError(err instanceof Error ? err.message : String(err));
        });
    }, QUIET_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // Only the text asks again: a reader is a constant of its caller.
  }, [text]);
  return { options, error };
}

interface PickProps {
  value: string;
  onChange: (value: string) => void;
  testId: string;
  placeholder: string;
  label?: string;
  read: (text: string) => Promise<Option[]>;
}

function SearchPick({ value, onChange, testId, placeholder, label, read }: PickProps) {
  const listId = useId();
  const { options, error } = useOptions(value, read);
  return (
    <span className="search-pick">
      <input
        data-testid={testId}
        className="mono grow"
        list={listId}
        placeholder={placeholder}
        aria-label={label ?? placeholder}
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={listId} data-testid={`${testId}-options`}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </datalist>
      {error && (
        <span className="error small" role="alert" data-testid={`${testId}-options-error`}>
          Matches could not be read: {error}
        </span>
      )}
    </span>
  );
}

const readClaims = async (text: string): Promise<Option[]> =>
  (await call('claim:page', { limit: OFFERED, ...(text ? { text } : {}) })).items.map((c) => ({ value: c.claimId, label: `${c.status}: ${c.statement.slice(0, 80)}` }));

/** A claim by id, offered by words of its id or statement (claim:page). */
export function ClaimPick(props: Omit<PickProps, 'read' | 'placeholder'> & { placeholder?: string }) {
  return <SearchPick placeholder="claim id or words of its statement" {...props} read={readClaims} />;
}

/** An evidence revision by id, offered by words of its id, title, source or producer (evidence:list); `state` narrows the offer. */
export function RevisionPick({ state, ...props }: Omit<PickProps, 'read' | 'placeholder'> & { placeholder?: string; state?: LifecycleState }) {
  const read = async (text: string): Promise<Option[]> =>
    (await call('evidence:list', { limit: OFFERED, sort: 'observed-desc', ...(text ? { text } : {}), ...(state ? { state } : {}) })).items.map((r) => ({
      value: r.revisionId,
      label: `${r.state}: ${r.title.slice(0, 70)}`,
    }));
  return <SearchPick placeholder="revision id or words of its title" {...props} read={read} />;
}
