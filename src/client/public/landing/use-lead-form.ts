import { useEffect, useRef, useState } from 'react';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import {
  EMPTY_LEAD_FORM,
  LEAD_FORM_FIELDS,
  toFormErrors,
  validateLeadForm,
  type LeadFormErrors,
  type LeadFormField,
  type LeadFormValues,
} from '#client/lib/lead-form.ts';
import { storedSessionId } from '../analytics-tracker.ts';
import { submitLead } from './api/submit-lead.ts';
import { formTokenKeeper, isFormTokenRefused, type FormTokenKeeper } from './form-token-keeper.ts';
import { buildLeadRequest, newSubmissionId } from './lead-request.ts';
import { LEAD_FAILURE_MESSAGE } from './lead-messages.ts';

/** The public form's inputs: a lead's, and the honeypot people never see (bots fill it in). */
export type PublicLeadFormValues = LeadFormValues & { website: string };
const EMPTY_FORM: PublicLeadFormValues = { ...EMPTY_LEAD_FORM, website: '' };

function firstInvalid(errors: LeadFormErrors): LeadFormField | undefined {
  return LEAD_FORM_FIELDS.find((field) => errors[field] !== undefined);
}

/**
 * State and submission of the public lead form: idle → submitting (button disabled) → reset
 * on success, `thanked` until the next submission. `onInvalid` receives the first field with an
 * error, to focus it.
 */
export function useLeadForm(onInvalid: (field: LeadFormField) => void, onSent: (bookingToken: string) => void = () => {}) {
  const [values, setValues] = useState<PublicLeadFormValues>(EMPTY_FORM);
  const [errors, setErrors] = useState<LeadFormErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [thanked, setThanked] = useState(false);
  // After the first attempt, errors follow the input as it changes.
  const attempted = useRef(false);
  const busy = useRef(false);
  // One id per filled-in form: a retry after a network error or 5xx reuses it, so the
  // server stores the lead once; a new id is made after a success.
  const submissionId = useRef<string | null>(null);
  // The server-signed token the form sends back; fetched at first focus (prepare).
  const tokens = useRef<FormTokenKeeper | null>(null);
  const keeper = () => (tokens.current ??= formTokenKeeper());

  // Focus moves to the first invalid field after its error is rendered, so a screen reader
  // reads the message (aria-describedby) along with the field.
  const pendingFocus = useRef<LeadFormField | null>(null);

  useEffect(() => {
    const field = pendingFocus.current;
    pendingFocus.current = null;
    if (field) onInvalid(field);
  }, [errors, onInvalid]);

  function setField(name: keyof PublicLeadFormValues, value: string) {
    const next = { ...values, [name]: value };
    setValues(next);
    if (attempted.current && name !== 'website') {
      const result = validateLeadForm(next);
      setErrors(result.ok ? {} : result.errors);
    }
  }

  function showErrors(next: LeadFormErrors) {
    pendingFocus.current = firstInvalid(next) ?? null;
    setErrors(next);
  }

  async function submit() {
    if (busy.current) return;
    attempted.current = true;
    const result = validateLeadForm(values);
    if (!result.ok) {
      showErrors(result.errors);
      return;
    }
    setErrors({});
    const id = (submissionId.current ??= newSubmissionId());
    const send = async () =>
      submitLead(
        buildLeadRequest(result.lead, {
          website: values.website,
          submissionId: id,
          formToken: await keeper().ready(),
          analyticsSessionId: storedSessionId(),
        }),
      );

    busy.current = true;
    setSubmitting(true);
    setThanked(false);
    try {
      let answer;
      try {
        answer = await send();
      } catch (error) {
        if (!isFormTokenRefused(error)) throw error;
        // The page outlived its token (or the server's secret changed): once more with a fresh one.
        keeper().discard();
        answer = await send();
      }
      submissionId.current = null;
      // A token serves one submission (a retry of it included): the next form fetches a fresh
      // one when it is focused again.
      keeper().discard();
      attempted.current = false;
      setValues(EMPTY_FORM);
      setErrors({});
      setThanked(true);
      if (typeof answer.booking_token === 'string') onSent(answer.booking_token);
    } catch (error) {
      handleFailure(error);
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }

  function handleFailure(error: unknown) {
    if (error instanceof ApiError && error.code === 'validation_failed' && error.fields) {
      const serverErrors = toFormErrors(error.fields);
      if (firstInvalid(serverErrors)) {
        showErrors(serverErrors);
        return;
      }
    }
    if ((error instanceof ApiError && error.code === 'rate_limited') || isFormTokenRefused(error)) {
      toast.error(error.message);
      return;
    }
    console.error('Lead form submission failed', error);
    toast.error(LEAD_FAILURE_MESSAGE);
  }

  /** At first focus of the form: start fetching its token. */
  const prepare = () => keeper().prefetch();

  /** Takes what was typed into the page's HTML before this code ran (see LeadForm). */
  const adopt = (typed: Partial<PublicLeadFormValues>) => setValues((current) => ({ ...current, ...typed }));

  return { values, errors, submitting, thanked, setField, submit, prepare, adopt };
}
