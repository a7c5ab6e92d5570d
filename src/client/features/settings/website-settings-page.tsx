import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { STEP_TITLES, WEBSITE_STATS, WEBSITE_STATS_MIN, type WebsiteContent } from '#shared/website-content';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { SaveButton, SettingsFormPage, useFocusFirstInvalid } from './components/settings-form-parts.tsx';
import { WebsitePreview } from './components/website-preview.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useSaveWebsite, useWebsite } from './api/website-settings.ts';
import { checkWebsiteForm, type WebsiteErrors } from './website-form.ts';

/** /dashboard/settings/website: everything the public website says about the firm, with a preview. */
export function WebsiteSettingsPage() {
  const website = useWebsite();
  return (
    <SettingsFormPage query={website} what="website settings">
      {(data) => <WebsiteForm saved={data} />}
    </SettingsFormPage>
  );
}

const card = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5';
const smallButton =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60';

type TextKey = { [K in keyof WebsiteContent]: WebsiteContent[K] extends string ? K : never }[keyof WebsiteContent];
type ListKey = 'highlights' | 'about_points' | 'steps';
type CardKey = 'services' | 'reasons';

/** A copy of the content with only its own keys (the answer's updated_at left out). */
const contentOf = (c: WebsiteContent): WebsiteContent => ({
  site_name: c.site_name,
  email: c.email,
  phone: c.phone,
  page_title: c.page_title,
  meta_description: c.meta_description,
  hero_badge: c.hero_badge,
  headline: c.headline,
  subheadline: c.subheadline,
  highlights: [...c.highlights],
  stats: c.stats.map((s) => ({ ...s })),
  about_intro: c.about_intro,
  about_more: c.about_more,
  about_points: [...c.about_points],
  services_intro: c.services_intro,
  services: c.services.map((s) => ({ ...s })),
  steps_intro: c.steps_intro,
  steps: [...c.steps],
  why_intro: c.why_intro,
  reasons: c.reasons.map((r) => ({ ...r })),
  contact_intro: c.contact_intro,
  form_note: c.form_note,
  tagline: c.tagline,
  city: c.city,
  address: c.address,
  legal_entity: c.legal_entity,
});

/** The form starts from the saved words and keeps what was typed (a refetch does not reset it). */
function WebsiteForm({ saved }: { saved: WebsiteContent }) {
  const id = useId();
  const save = useSaveWebsite();
  const [values, setValues] = useState<WebsiteContent>(() => contentOf(saved));
  const [errors, setErrors] = useState<WebsiteErrors>({});
  const addFigureRef = useRef<HTMLButtonElement>(null);
  const newFigureRef = useRef<HTMLInputElement>(null);
  // Where focus goes once a figure is added (its first field) or removed (Add a figure).
  const focusAfter = useRef<'added' | 'removed' | null>(null);
  useEffect(() => {
    if (focusAfter.current === 'added') newFigureRef.current?.focus();
    if (focusAfter.current === 'removed') addFigureRef.current?.focus();
    focusAfter.current = null;
  }, [values.stats.length]);
  // After a refused save, focus goes to the first field with a message.
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const refuse = (found: WebsiteErrors) => {
    setErrors(found);
    focusFirstInvalid();
  };
  const change = (key: string, next: WebsiteContent) => {
    setValues(next);
    setErrors(({ [key]: _, ...rest }) => rest);
  };
  const text = (key: TextKey) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { currentTarget: { value: string } }) => change(key, { ...values, [key]: e.currentTarget.value }),
  });
  const item = (key: ListKey, i: number) => ({
    value: values[key][i] ?? '',
    error: errors[`${key}.${i}`],
    onChange: (e: { currentTarget: { value: string } }) =>
      change(`${key}.${i}`, { ...values, [key]: values[key].map((v, j) => (j === i ? e.currentTarget.value : v)) }),
  });
  const cardPart = (key: CardKey, i: number, part: 'title' | 'text') => ({
    value: values[key][i]?.[part] ?? '',
    error: errors[`${key}.${i}.${part}`],
    onChange: (e: { currentTarget: { value: string } }) =>
      change(`${key}.${i}.${part}`, {
        ...values,
        [key]: values[key].map((c, j) => (j === i ? { ...c, [part]: e.currentTarget.value } : c)),
      }),
  });
  const stat = (i: number, part: 'value' | 'label') => ({
    value: values.stats[i]?.[part] ?? '',
    error: errors[`stats.${i}.${part}`],
    onChange: (e: { currentTarget: { value: string } }) =>
      change(`stats.${i}.${part}`, {
        ...values,
        stats: values.stats.map((s, j) => (j === i ? { ...s, [part]: e.currentTarget.value } : s)),
      }),
  });
  // Adding or removing a figure renumbers the ones after it: their messages go, and are given again at the next save.
  const withoutStatErrors = (all: WebsiteErrors) =>
    Object.fromEntries(Object.entries(all).filter(([key]) => key !== 'stats' && !key.startsWith('stats.')));
  const addFigure = () => {
    setValues({ ...values, stats: [...values.stats, { value: '', label: '' }] });
    setErrors(withoutStatErrors);
    focusAfter.current = 'added';
  };
  const removeFigure = (i: number) => {
    setValues({ ...values, stats: values.stats.filter((_, j) => j !== i) });
    setErrors(withoutStatErrors);
    focusAfter.current = 'removed';
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWebsiteForm(values);
    if (checked.errors) {
      refuse(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.content, {
      onSuccess: () => toast.success('Website saved: the changes are live'),
      onError: (error) => {
        console.error('Saving the website failed', error);
        if (error instanceof ApiError && error.fields) refuse(error.fields);
        toast.error('Failed to save website');
      },
    });
  };

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-labelledby={`${id}-heading`} className="min-w-0 space-y-6">
        <div className={`${card} space-y-1`}>
          <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
            Website
          </h2>
          <p className="text-sm text-slate-600">
            Everything your public website says about your firm: your name, how to reach you, and every claim on the pages. Changes go live
            as soon as you save.
          </p>
        </div>

        <Section
          legend="Brand and contact"
          hint="Shown in the header, the footer, the contact section and the legal pages, and in the emails your clients get."
        >
          <TextField label="Brand name" autoComplete="organization" {...text('site_name')} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Email" type="email" inputMode="email" autoComplete="email" {...text('email')} />
            <TextField label="Phone" type="tel" autoComplete="tel" {...text('phone')} />
          </div>
        </Section>

        <Section legend="Search results and shared links" hint="The home page's title (after your brand name) and description.">
          <TextField label="Page title" {...text('page_title')} />
          <TextareaField label="Description in search results" rows={3} {...text('meta_description')} />
        </Section>

        <Section legend="Top of the page">
          <TextField label="Badge" {...text('hero_badge')} />
          <TextField label="Headline" {...text('headline')} />
          <TextareaField label="Subheadline" rows={3} {...text('subheadline')} />
          {values.highlights.map((_, i) => (
            <TextField key={i} label={`Highlight ${i + 1}`} {...item('highlights', i)} />
          ))}
        </Section>

        <Section
          legend="Figures under the headline"
          hint={`From ${WEBSITE_STATS_MIN} to ${WEBSITE_STATS}: a figure and what it counts, like "24hr" and "Turnaround".`}
        >
          {values.stats.map((_, i) => (
            <div key={i} className="grid items-start gap-3 sm:grid-cols-[9rem_minmax(0,1fr)_auto]">
              <TextField ref={i === values.stats.length - 1 ? newFigureRef : undefined} label={`Figure ${i + 1}`} {...stat(i, 'value')} />
              <TextField label={`Label ${i + 1}`} {...stat(i, 'label')} />
              <button
                type="button"
                className={`${smallButton} sm:mt-6`}
                disabled={values.stats.length <= WEBSITE_STATS_MIN}
                onClick={() => removeFigure(i)}
                aria-label={`Remove figure ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          {errors.stats ? <p className="text-sm text-red-700">{errors.stats}</p> : null}
          <button
            ref={addFigureRef}
            type="button"
            className={smallButton}
            disabled={values.stats.length >= WEBSITE_STATS}
            onClick={addFigure}
          >
            Add a figure
          </button>
        </Section>

        <Section legend="About">
          <TextareaField label="About, first paragraph" rows={3} {...text('about_intro')} />
          <TextareaField label="About, second paragraph" rows={3} {...text('about_more')} />
          {values.about_points.map((_, i) => (
            <TextField key={i} label={`About point ${i + 1}`} {...item('about_points', i)} />
          ))}
        </Section>

        <Section legend="Services">
          <TextareaField label="Services introduction" rows={2} {...text('services_intro')} />
          {values.services.map((_, i) => (
            <div key={i} className="space-y-3">
              <TextField label={`Service ${i + 1} title`} {...cardPart('services', i, 'title')} />
              <TextareaField label={`Service ${i + 1} description`} rows={2} {...cardPart('services', i, 'text')} />
            </div>
          ))}
          {errors.services ? <p className="text-sm text-red-700">{errors.services}</p> : null}
        </Section>

        <Section legend="How it works">
          <TextareaField label="How it works introduction" rows={2} {...text('steps_intro')} />
          {STEP_TITLES.map((title, i) => (
            <TextareaField key={title} label={`Step ${i + 1}: ${title}`} rows={2} {...item('steps', i)} />
          ))}
        </Section>

        <Section legend="Why choose us">
          <TextareaField label="Why choose us introduction" rows={2} {...text('why_intro')} />
          {values.reasons.map((_, i) => (
            <div key={i} className="space-y-3">
              <TextField label={`Reason ${i + 1} title`} {...cardPart('reasons', i, 'title')} />
              <TextareaField label={`Reason ${i + 1} description`} rows={2} {...cardPart('reasons', i, 'text')} />
            </div>
          ))}
          {errors.reasons ? <p className="text-sm text-red-700">{errors.reasons}</p> : null}
        </Section>

        <Section legend="Contact and footer">
          <TextareaField label="Contact introduction" rows={2} {...text('contact_intro')} />
          <TextField label="Note under the form's button" {...text('form_note')} />
          <TextareaField label="Footer tagline" rows={2} {...text('tagline')} />
        </Section>

        <Section legend="Where you are, and who you are">
          <TextField label="City" {...text('city')} />
          <TextField label="Address" {...text('address')} />
          <TextField label="Legal name (in the legal pages)" {...text('legal_entity')} />
        </Section>

        <div className="flex flex-wrap items-center justify-end gap-3">
          <a href="/" target="_blank" rel="noopener" className="rounded-md px-3 py-2 text-sm font-medium text-blue-800 hover:underline">
            Open the website
          </a>
          <SaveButton saving={save.isPending} />
        </div>
      </form>
      <WebsitePreview content={values} />
    </div>
  );
}

/** A group of fields under its legend, with a line saying where they show. */
function Section({ legend, hint, children }: { legend: string; hint?: string; children: ReactNode }) {
  const hintId = useId();
  return (
    <fieldset className={`${card} min-w-0 space-y-4`} aria-describedby={hint ? hintId : undefined}>
      <legend className="px-1 text-base font-semibold text-slate-900">{legend}</legend>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}
