import { useState, type FormEvent } from 'react';
import { EMAIL_SIGNATURE_MAX } from '#shared/constants';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useSaveSignature, useSignature } from '../api/email-signature.ts';
import { Card } from './card.tsx';

const TOO_LONG = `Signature must be at most ${EMAIL_SIGNATURE_MAX.toLocaleString('en-US')} characters`;

/** The signature under the messages you write to leads from their page. */
export function SignatureSection() {
  const saved = useSignature();
  return (
    <Card title="Email signature" description="Added under the messages you write to leads from their page. Leave it empty for none.">
      {saved.isPending ? (
        <Spinner className="py-4" label="Loading your signature..." />
      ) : saved.isError ? (
        <p className="mt-3 text-sm text-red-700">Your signature could not be loaded. Please reload the page.</p>
      ) : (
        <SignatureForm key={saved.data.signature} initial={saved.data.signature} />
      )}
    </Card>
  );
}

function SignatureForm({ initial }: { initial: string }) {
  const save = useSaveSignature();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (value.trim().length > EMAIL_SIGNATURE_MAX) return setError(TOO_LONG);
    setError(undefined);
    try {
      await save.mutateAsync({ signature: value });
    } catch (err) {
      console.error('Saving the signature failed', err);
      if (err instanceof ApiError && err.fields?.signature) return setError(err.fields.signature);
      toast.error('Failed to save your signature');
      return;
    }
    toast.success('Signature saved');
  };

  return (
    <form className="mt-4 space-y-3" onSubmit={(event) => void submit(event)} noValidate aria-label="Email signature">
      <TextareaField label="Signature" rows={4} value={value} onChange={(event) => setValue(event.target.value)} error={error} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save signature'}
      </Button>
    </form>
  );
}
