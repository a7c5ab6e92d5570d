import { useId, type ReactNode } from 'react';

export type RadioOption<V extends string> = { value: V; label: ReactNode; hint?: ReactNode };

type Props<V extends string> = {
  legend: ReactNode;
  value: V;
  onChange: (value: V) => void;
  options: readonly RadioOption<V>[];
  /** Side by side from the small breakpoint (two values to compare); stacked otherwise. */
  columns?: boolean;
  className?: string;
};

/**
 * A fieldset of native radio buttons: the legend names the group for screen readers, arrow
 * keys move between the options, and each option's whole box is its label (a large target).
 */
export function RadioGroup<V extends string>({ legend, value, onChange, options, columns = false, className = '' }: Props<V>) {
  const name = useId();
  return (
    <fieldset className={className}>
      <legend className="text-sm font-medium text-slate-900">{legend}</legend>
      <div className={`mt-2 grid gap-2 ${columns ? 'sm:grid-cols-2' : ''}`}>
        {options.map((option) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm text-slate-800 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-600"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="mt-0.5 size-4 shrink-0 accent-blue-700"
            />
            <span className="min-w-0 break-words">
              {option.label}
              {option.hint ? <span className="block text-xs text-slate-600">{option.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
