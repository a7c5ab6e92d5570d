import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { FieldFrame, fieldAria, fieldControlClass, useFieldIds } from './form-field.tsx';

type Props = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | undefined };

/** A labelled textarea whose error shows under it, tied to it for screen readers, with a red border. */
export const TextareaField = forwardRef<HTMLTextAreaElement, Props>(function TextareaField(
  { label, error, id, className, ...textarea },
  ref,
) {
  const { controlId, errorId } = useFieldIds(id);
  return (
    <FieldFrame label={label} controlId={controlId} errorId={errorId} error={error} className={className}>
      <textarea ref={ref} id={controlId} {...fieldAria(error, errorId)} className={fieldControlClass(error)} {...textarea} />
    </FieldFrame>
  );
});
