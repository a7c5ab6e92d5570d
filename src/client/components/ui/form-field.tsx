import { useId, type ReactNode } from 'react';

/**
 * What every labelled form control shares: its label, the error under it tied to it for
 * screen readers (aria-invalid, aria-describedby), and a red border while it has an error.
 */
export function useFieldIds(id: string | undefined) {
  const generated = useId();
  const controlId = id ?? generated;
  return { controlId, errorId: `${controlId}-error` };
}

export const fieldAria = (error: string | undefined, errorId: string) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? errorId : undefined,
});

export const fieldControlClass = (error: string | undefined) =>
  `block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-2 focus:outline-blue-600 ${
    error ? 'border-red-500' : 'border-slate-300'
  }`;

type FrameProps = {
  label: string;
  controlId: string;
  errorId: string;
  error: string | undefined;
  className: string | undefined;
  children: ReactNode;
};

export function FieldFrame({ label, controlId, errorId, error, className, children }: FrameProps) {
  return (
    <div className={className}>
      <label htmlFor={controlId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** A control's error under it; `id` is what the control's aria-describedby names. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="mt-1 text-sm text-red-600">
      {error}
    </p>
  ) : null;
}
