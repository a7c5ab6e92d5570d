import type { ChangeEvent } from 'react';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { PROPERTY_TYPE_OPTIONS, type LeadFormField } from '#client/lib/lead-form.ts';

/** What `useCheckedForm`'s `field` gives one input. */
type FieldBinding = {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;
  ref: (element: HTMLElement | null) => void;
};

type Props = {
  field: (name: LeadFormField) => FieldBinding;
  /** The customer wrote the message on the public form: shown, not editable (the server refuses a change). */
  messageReadOnly?: boolean;
};

/** The inputs the Add and Edit Lead forms share (docs/product-rules.md, "Validation"). */
export function LeadFormFields({ field, messageReadOnly = false }: Props) {
  return (
    <>
      <TextField label="Full Name" autoComplete="off" {...field('full_name')} />
      <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
      <TextField label="Phone" type="tel" autoComplete="off" {...field('phone')} />
      <SelectField label="Property Type" {...field('property_type')}>
        <option value="">Select property type</option>
        {PROPERTY_TYPE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      {messageReadOnly ? (
        <div>
          <TextareaField
            label="Additional Information"
            rows={4}
            readOnly
            aria-describedby="lead-message-read-only"
            className="[&_textarea]:bg-slate-50"
            {...field('message')}
            error={undefined}
          />
          <p id="lead-message-read-only" className="mt-1 text-xs text-slate-500">
            The customer’s own words from the website form cannot be changed. Add a note on the lead’s page instead.
          </p>
        </div>
      ) : (
        <TextareaField label="Additional Information" rows={4} {...field('message')} />
      )}
    </>
  );
}
