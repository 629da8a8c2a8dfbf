/**
 * The Cancel button of a long job: between the click and the job's end it reads "Cancelling…" and is disabled,
 * so a person sees the request was taken (the worker stops at its next check).
 */
export function CancelButton({
  cancelling,
  onCancel,
  label = 'Cancel',
  disabled = false,
}: {
  cancelling: boolean;
  onCancel: () => void;
  label?: string;
  /** Disabled for another reason (no job to cancel). */
  disabled?: boolean;
}) {
  return (
    <button type="button" onClick={onCancel} disabled={cancelling || disabled} aria-busy={cancelling || undefined} data-testid={cancelling ? 'cancelling' : undefined}>
      {cancelling ? 'Cancelling…' : label}
    </button>
  );
}
