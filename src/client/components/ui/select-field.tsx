import { forwardRef, useId, type ReactNode, type SelectHTMLAttributes } from 'react';

type Props = SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string | undefined; children: ReactNode };

/** A labelled select whose error shows under it, tied to it for screen readers, with a red border. */
export const SelectField = forwardRef<HTMLSelectElement, Props>(function SelectField({ label, error, id, className, children, ...select }, ref) {
  const generated = useId();
  const selectId = id ?? generated;
  const errorId = `${selectId}-error`;
  return (
    <div className={className}>
      <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        ref={ref}
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 ${
          error ? 'border-red-500' : 'border-slate-300'
        }`}
        {...select}
      >
        {children}
      </select>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
});
