import { forwardRef, type ReactNode, type SelectHTMLAttributes } from 'react';
import { FieldFrame, fieldAria, fieldControlClass, useFieldIds } from './form-field.tsx';

type Props = SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string | undefined; children: ReactNode };

/** A labelled select whose error shows under it, tied to it for screen readers, with a red border. */
export const SelectField = forwardRef<HTMLSelectElement, Props>(function SelectField(
  { label, error, id, className, children, ...select },
  ref,
) {
  const { controlId, errorId } = useFieldIds(id);
  return (
    <FieldFrame label={label} controlId={controlId} errorId={errorId} error={error} className={className}>
      <select ref={ref} id={controlId} {...fieldAria(error, errorId)} className={fieldControlClass(error)} {...select}>
        {children}
      </select>
    </FieldFrame>
  );
});
