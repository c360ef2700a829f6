import { useState, type ReactNode } from 'react';

/**
 * A destructive or terminal act is confirmed with what will happen (DESIGN §3.10): the first
 * click only shows the consequence; the act runs on "Confirm", and "Cancel" leaves everything as
 * it was.
 */
export function ConfirmStep({
  label,
  confirmLabel,
  consequence,
  disabled,
  onConfirm,
  testId,
  className,
}: {
  label: string;
  confirmLabel: string;
  consequence: ReactNode;
  disabled?: boolean;
  onConfirm: () => void;
  testId: string;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className={className} data-testid={testId} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div className="confirm-step" role="alertdialog" aria-label={label} data-testid={`${testId}-confirm-step`}>
      <p className="small" data-testid={`${testId}-consequence`}>
        {consequence}
      </p>
      <div className="row">
        <button
          type="button"
          className="danger"
          data-testid={`${testId}-confirm`}
          disabled={disabled}
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" className="secondary" data-testid={`${testId}-cancel`} onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
