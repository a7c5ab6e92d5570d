import { useId, useState, type FormEvent } from 'react';
import type { WebsiteContent } from '#shared/website-content';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { SaveButton, SettingsFormPage, useFocusFirstInvalid } from './components/settings-form-parts.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useSaveWebsite, useWebsite } from './api/website.ts';
import { checkWebsiteForm, type WebsiteErrors } from './website-form.ts';

/** /dashboard/settings/website: the public website's words that are the firm's own, with a preview. */
export function WebsiteSettingsPage() {
  const website = useWebsite();
  return (
    <SettingsFormPage query={website} what="website settings">
      {(data) => <WebsiteForm saved={data} />}
    </SettingsFormPage>
  );
}

const card = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5';
const contentOf = ({ headline, subheadline, stats, services, city, address, legal_entity }: WebsiteContent): WebsiteContent => ({
  headline,
  subheadline,
  stats: stats.map((s) => ({ ...s })),
  services: services.map((s) => ({ ...s })),
  city,
  address,
  legal_entity,
});

/** The form starts from the saved words and keeps what was typed (a refetch does not reset it). */
function WebsiteForm({ saved }: { saved: WebsiteContent }) {
  const id = useId();
  const save = useSaveWebsite();
  const [values, setValues] = useState<WebsiteContent>(() => contentOf(saved));
  const [errors, setErrors] = useState<WebsiteErrors>({});
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
  const setText = (key: 'headline' | 'subheadline' | 'city' | 'address' | 'legal_entity') => (value: string) => change(key, { ...values, [key]: value });
  const setStat = (i: number, part: 'value' | 'label', value: string) =>
    change(`stats.${i}.${part}`, { ...values, stats: values.stats.map((s, j) => (j === i ? { ...s, [part]: value } : s)) });
  const setService = (i: number, part: 'title' | 'text', value: string) =>
    change(`services.${i}.${part}`, { ...values, services: values.services.map((s, j) => (j === i ? { ...s, [part]: value } : s)) });

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
        <div className={`${card} space-y-4`}>
          <div className="space-y-1">
            <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
              Website
            </h2>
            <p className="text-sm text-slate-600">The words on your public website that are your firm’s own. Changes go live as soon as you save.</p>
          </div>
          <TextField label="Headline" value={values.headline} onChange={(e) => setText('headline')(e.currentTarget.value)} error={errors.headline} />
          <TextareaField label="Subheadline" rows={3} value={values.subheadline} onChange={(e) => setText('subheadline')(e.currentTarget.value)} error={errors.subheadline} />
        </div>

        <fieldset className={`${card} space-y-4`}>
          <legend className="px-1 text-base font-semibold text-slate-900">Figures under the headline</legend>
          {values.stats.map((stat, i) => (
            <div key={i} className="grid gap-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
              <TextField label={`Figure ${i + 1}`} value={stat.value} onChange={(e) => setStat(i, 'value', e.currentTarget.value)} error={errors[`stats.${i}.value`]} />
              <TextField label={`Label ${i + 1}`} value={stat.label} onChange={(e) => setStat(i, 'label', e.currentTarget.value)} error={errors[`stats.${i}.label`]} />
            </div>
          ))}
          {errors.stats ? <p className="text-sm text-red-700">{errors.stats}</p> : null}
        </fieldset>

        <fieldset className={`${card} space-y-5`}>
          <legend className="px-1 text-base font-semibold text-slate-900">Services</legend>
          {values.services.map((service, i) => (
            <div key={i} className="space-y-3">
              <TextField label={`Service ${i + 1} title`} value={service.title} onChange={(e) => setService(i, 'title', e.currentTarget.value)} error={errors[`services.${i}.title`]} />
              <TextareaField label={`Service ${i + 1} description`} rows={2} value={service.text} onChange={(e) => setService(i, 'text', e.currentTarget.value)} error={errors[`services.${i}.text`]} />
            </div>
          ))}
          {errors.services ? <p className="text-sm text-red-700">{errors.services}</p> : null}
        </fieldset>

        <fieldset className={`${card} space-y-4`}>
          <legend className="px-1 text-base font-semibold text-slate-900">Where you are, and who you are</legend>
          <TextField label="City" value={values.city} onChange={(e) => setText('city')(e.currentTarget.value)} error={errors.city} />
          <TextField label="Address" value={values.address} onChange={(e) => setText('address')(e.currentTarget.value)} error={errors.address} />
          <TextField
            label="Legal name (in the legal pages)"
            value={values.legal_entity}
            onChange={(e) => setText('legal_entity')(e.currentTarget.value)}
            error={errors.legal_entity}
          />
        </fieldset>

        <div className="flex flex-wrap items-center justify-end gap-3">
          <a href="/" target="_blank" rel="noopener" className="rounded-md px-3 py-2 text-sm font-medium text-blue-800 hover:underline">
            Open the website
          </a>
          <SaveButton saving={save.isPending} />
        </div>
      </form>
      <Preview content={values} />
    </div>
  );
}

/** The landing page's top, its services and the contact line as typed, before saving. */
function Preview({ content }: { content: WebsiteContent }) {
  return (
    <aside aria-label="Preview" className="min-w-0 xl:sticky xl:top-4 xl:self-start">
      <p className="mb-2 text-sm font-medium text-slate-700">Preview (as you type)</p>
      <div className="overflow-hidden rounded-lg border border-slate-200 shadow-sm">
        <div className="bg-slate-900 p-5 text-white">
          <p className="text-2xl font-bold tracking-tight break-words">{content.headline}</p>
          <p className="mt-3 text-sm leading-relaxed break-words text-slate-200">{content.subheadline}</p>
          <ul className="mt-5 grid grid-cols-2 gap-2">
            {content.stats.map((s, i) => (
              <li key={i} className="rounded-md border border-white/20 bg-white/5 p-2">
                <p className="text-lg font-bold break-words">{s.value}</p>
                <p className="text-xs break-words text-slate-300">{s.label}</p>
              </li>
            ))}
          </ul>
        </div>
        <ul className="grid gap-3 bg-slate-50 p-4">
          {content.services.map((s, i) => (
            <li key={i} className="rounded-md border border-slate-200 bg-white p-3">
              <p className="font-semibold break-words text-slate-900">{s.title}</p>
              <p className="mt-1 text-sm break-words text-slate-600">{s.text}</p>
            </li>
          ))}
        </ul>
        <div className="space-y-1 bg-slate-800 p-4 text-sm text-slate-200">
          <p className="break-words">{content.address}</p>
          <p className="break-words">{content.city}</p>
          <p className="break-words text-slate-300">{`Terms of Service: between you and ${content.legal_entity}`}</p>
        </div>
      </div>
    </aside>
  );
}
