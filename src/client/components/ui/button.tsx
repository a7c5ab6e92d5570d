import { forwardRef, type ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'block';

const VARIANT: Record<ButtonVariant, string> = {
  primary: 'bg-blue-700 font-semibold text-white hover:bg-blue-800',
  secondary: 'border border-slate-300 bg-white font-medium text-slate-700 hover:bg-slate-50',
  danger: 'bg-red-700 font-semibold text-white hover:bg-red-800',
};

const SIZE: Record<ButtonSize, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  // The sign-in pages' one full-width action.
  block: 'w-full px-4 py-2.5',
};

/**
 * The classes of a button, for a link that looks like one (an `<a download>`, a router Link):
 * the admin app's buttons come in these variants and sizes only.
 */
export function buttonClass({
  variant = 'primary',
  size = 'md',
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string | undefined;
} = {}) {
  return [
    'inline-flex items-center justify-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-60',
    VARIANT[variant],
    SIZE[size],
    className,
  ]
    .filter(Boolean)
    .join(' ');
}

type Props = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize };

/** The admin app's button: `type="button"` unless told otherwise, so it never submits a form by accident. */
export const Button = forwardRef<HTMLButtonElement, Props>(function Button({ variant, size, className, type = 'button', ...button }, ref) {
  return <button ref={ref} type={type} className={buttonClass({ variant, size, className })} {...button} />;
});
