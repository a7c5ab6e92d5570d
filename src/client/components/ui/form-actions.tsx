type Props = { busy: boolean; label: string; busyLabel: string; onCancel: () => void };
import { Button } from '#client/components/ui/button.tsx';

/** A dialog form's Cancel and submit buttons; the submit button is disabled while the request runs. */
export function FormActions({ busy, label, busyLabel, onCancel }: Props) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      <Button onClick={onCancel} variant="secondary">
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}
