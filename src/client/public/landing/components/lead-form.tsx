import { useEffect, useLayoutEffect, useRef, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { Send } from '#client/components/icons.tsx';
import { PROPERTY_TYPE_OPTIONS, type LeadFormField } from '#client/lib/lead-form.ts';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { LEAD_SUCCESS_MESSAGE } from '../lead-messages.ts';
import { useLeadForm } from '../use-lead-form.ts';

const controlClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-1 ${
    invalid ? 'border-red-600 focus-visible:ring-red-600' : 'border-slate-300 focus-visible:border-brand-600 focus-visible:ring-brand-600'
  }`;

const focusField = (field: LeadFormField) => document.getElementById(`lead-${field}`)?.focus();

type Flow = ComponentType<{ token: string; onFinished: () => void }>;

/**
 * The public lead form: checked in the browser with the rules and messages the server applies.
 * Once sent, it thanks the visitor in its own status line (a live region above it, never a
 * toast over the picker's heading) and turns into the time picker (its code loaded only then),
 * as tall as the form was; skipping or finishing brings the empty form back.
 */
export function LeadForm() {
  const formNote = useSiteConfig().website.form_note;
  const formRef = useRef<HTMLFormElement>(null);
  const [booking, setBooking] = useState<{ token: string; Flow: Flow; height: number } | null>(null);
  const openPicker = (token: string) => {
    const height = formRef.current?.offsetHeight ?? 0;
    import('../../booking/booking-flow.tsx').then(
      (m) => setBooking({ token, Flow: m.BookingFlow, height }),
      // Not loaded (offline?): the form stays, as it was before booking existed.
      (error: unknown) => console.error('The booking picker could not be loaded', error),
    );
  };
  const { values, errors, submitting, thanked, setField, submit, prepare, adopt } = useLeadForm(focusField, openPicker);
  // The form is in the page's HTML before its code arrives (public/island-code.ts): whatever a
  // visitor typed or chose by then is taken into the form's state, and a focus inside it counts
  // as the first focus. A layout effect, so the state holds it before any submit held meanwhile
  // (public/main.tsx) is made again.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typed: Partial<Record<keyof typeof values, string>> = {};
    for (const name of Object.keys(values) as (keyof typeof values)[]) {
      const control = form.elements.namedItem(name);
      if (control && 'value' in control && control.value !== values[name]) typed[name] = control.value;
    }
    if (Object.keys(typed).length > 0) adopt(typed);
    if (form.contains(document.activeElement)) prepare();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the form comes to life
  }, []);
  const thanksRef = useRef<HTMLParagraphElement>(null);
  const pickerRef = useRef<HTMLDivElement>(null);
  // The picker focuses its heading, which scrolls it into view (centred, in Chromium): the thanks
  // above it comes into view too, below the fixed navigation. The picker may focus its heading
  // only once its times have loaded, after this effect, so a heading taking focus brings the
  // thanks back. Only a heading (focused by the picker, tabindex -1): a time, a kind of call or
  // Confirm takes focus on the press of a tap or click, and scrolling then would move the page
  // (smoothly) before the release, which would land elsewhere and be lost.
  useEffect(() => {
    if (!booking) return;
    const showThanks = () => thanksRef.current?.scrollIntoView({ block: 'nearest' });
    showThanks();
    const picker = pickerRef.current;
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLHeadingElement) requestAnimationFrame(showThanks);
    };
    picker?.addEventListener('focusin', onFocusIn);
    return () => picker?.removeEventListener('focusin', onFocusIn);
  }, [booking]);

  // One live region for both states, present before it speaks, so screen readers announce the thanks.
  const thanks = (
    <p
      ref={thanksRef}
      role="status"
      className={thanked ? 'mb-5 scroll-mt-20 rounded-md bg-brand-50 px-4 py-3 font-medium text-navy-900' : 'sr-only'}
    >
      {thanked ? LEAD_SUCCESS_MESSAGE : ''}
    </p>
  );

  if (booking) {
    const { Flow, token, height } = booking;
    return (
      <div>
        {thanks}
        <div ref={pickerRef} style={{ minHeight: height }}>
          <Flow token={token} onFinished={() => setBooking(null)} />
        </div>
      </div>
    );
  }

  const field = (name: LeadFormField) => ({
    id: `lead-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `lead-${name}-error` : undefined,
    className: controlClass(Boolean(errors[name])),
    value: values[name],
    onChange: (event: { currentTarget: { value: string } }) => setField(name, event.currentTarget.value),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit();
  };

  return (
    <div>
      {thanks}
      <form
        ref={formRef}
        data-lead-form
        noValidate
        onSubmit={onSubmit}
        onFocusCapture={prepare}
        aria-label="Request a free deal analysis"
        className="grid gap-5 sm:grid-cols-2"
      >
        <Field name="full_name" label="Full name" error={errors.full_name}>
          <input {...field('full_name')} type="text" autoComplete="name" aria-required="true" />
        </Field>
        <Field name="email" label="Email" error={errors.email}>
          <input {...field('email')} type="email" autoComplete="email" inputMode="email" aria-required="true" />
        </Field>
        <Field name="phone" label="Phone" error={errors.phone}>
          <input {...field('phone')} type="tel" autoComplete="tel" aria-required="true" />
        </Field>
        <Field name="property_type" label="Property type" error={errors.property_type}>
          <select {...field('property_type')} aria-required="true">
            <option value="">Select property type</option>
            {PROPERTY_TYPE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
        <Field name="message" label="Additional information" hint="Optional" error={errors.message} wide>
          <textarea {...field('message')} rows={4} placeholder="Tell us about the property or the deal" />
        </Field>

        {/* Honeypot: people never see or reach it; bots that fill every input do. */}
        <div className="honeypot" aria-hidden="true">
          <label htmlFor="lead-website">Leave this field empty</label>
          <input
            id="lead-website"
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={values.website}
            onChange={(e) => setField('website', e.currentTarget.value)}
          />
        </div>

        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={submitting}
            className="inline-flex w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-70"
          >
            {submitting ? 'Submitting...' : 'Submit Request'}
            {!submitting && <Send aria-hidden="true" className="size-4" />}
          </button>
          <p className="mt-3 text-center text-sm text-slate-600">{formNote}</p>
        </div>
      </form>
    </div>
  );
}

type FieldProps = {
  name: LeadFormField;
  label: string;
  error: string | undefined;
  hint?: string;
  wide?: boolean;
  children: ReactNode;
};

function Field({ name, label, error, hint, wide, children }: FieldProps) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <label htmlFor={`lead-${name}`} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {hint && <span className="text-xs text-slate-500">{hint}</span>}
      </div>
      {children}
      {error && (
        <p id={`lead-${name}-error`} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
