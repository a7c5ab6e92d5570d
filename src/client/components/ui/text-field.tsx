import { forwardRef, type InputHTMLAttributes } from 'react';
import { FieldFrame, fieldAria, fieldControlClass, useFieldIds } from './form-field.tsx';

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined };

/** A labelled input whose error shows under it, tied to it for screen readers, with a red border. */
export const TextField = forwardRef<HTMLInputElement, Props>(function TextField({ label, error, id, className, ...input }, ref) {
  const { controlId, errorId } = useFieldIds(id);
  return (
    <FieldFrame label={label} controlId={controlId} errorId={errorId} error={error} className={className}>
      <input ref={ref} id={controlId} {...fieldAria(error, errorId)} className={fieldControlClass(error)} {...input} />
    </FieldFrame>
  );
});
