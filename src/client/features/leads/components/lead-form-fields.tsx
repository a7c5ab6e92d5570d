import type { FieldErrors, Path, UseFormRegister } from 'react-hook-form';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { PROPERTY_TYPE_OPTIONS, type LeadFormValues } from '#client/lib/lead-form.ts';

type Props<T extends LeadFormValues> = {
  register: UseFormRegister<T>;
  errors: FieldErrors<LeadFormValues>;
  /** The customer wrote the message on the public form: shown, not editable (the server refuses a change). */
  messageReadOnly?: boolean;
};

/** The inputs the Add and Edit Lead forms share (docs/product-rules.md, "Validation"). */
export function LeadFormFields<T extends LeadFormValues>({ register: registerField, errors, messageReadOnly = false }: Props<T>) {
  // Every form these fields go into has the lead's fields (T extends LeadFormValues).
  const register = (name: keyof LeadFormValues) => registerField(name as Path<T>);
  return (
    <>
      <TextField label="Full Name" autoComplete="off" error={errors.full_name?.message} {...register('full_name')} />
      <TextField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <TextField label="Phone" type="tel" autoComplete="off" error={errors.phone?.message} {...register('phone')} />
      <SelectField label="Property Type" error={errors.property_type?.message} {...register('property_type')}>
        <option value="">Select property type</option>
        {PROPERTY_TYPE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      {messageReadOnly ? (
        <div>
          <TextareaField label="Additional Information" rows={4} readOnly aria-describedby="lead-message-read-only" className="[&_textarea]:bg-slate-50" {...register('message')} />
          <p id="lead-message-read-only" className="mt-1 text-xs text-slate-500">
            The customer’s own words from the website form cannot be changed. Add a note on the lead’s page instead.
          </p>
        </div>
      ) : (
        <TextareaField label="Additional Information" rows={4} error={errors.message?.message} {...register('message')} />
      )}
    </>
  );
}
