import { forwardRef, useId, type InputHTMLAttributes } from 'react';

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined };

/** A labelled input whose error shows under it, tied to it for screen readers, with a red border. */
export const TextField = forwardRef<HTMLInputElement, Props>(function TextField({ label, error, id, className, ...input }, ref) {
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-2 focus:outline-blue-600 ${
          error ? 'border-red-500' : 'border-slate-300'
        }`}
        {...input}
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
});
