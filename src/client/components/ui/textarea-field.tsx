import { forwardRef, useId, type TextareaHTMLAttributes } from 'react';

type Props = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | undefined };

/** A labelled textarea whose error shows under it, tied to it for screen readers, with a red border. */
export const TextareaField = forwardRef<HTMLTextAreaElement, Props>(function TextareaField({ label, error, id, className, ...textarea }, ref) {
  const generated = useId();
  const textareaId = id ?? generated;
  const errorId = `${textareaId}-error`;
  return (
    <div className={className}>
      <label htmlFor={textareaId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        ref={ref}
        id={textareaId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-2 focus:outline-blue-600 ${
          error ? 'border-red-500' : 'border-slate-300'
        }`}
        {...textarea}
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
});
