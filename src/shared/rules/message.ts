import { EMAIL_TEMPLATE_NAME_MAX, LEAD_EMAIL_BODY_MAX, LEAD_EMAIL_SUBJECT_MAX } from '../constants.ts';
import { mergeFieldProblem } from './merge-fields.ts';

/**
 * The checks a message's subject and text (and an email template's name) pass before they are
 * sent, in the server's words, so a person sees them without a round trip.
 */
export function checkMessageText(values: { subject: string; body: string }): { subject?: string; body?: string } {
  const errors: { subject?: string; body?: string } = {};
  const subject = values.subject.trim();
  if (!subject) errors.subject = 'Subject is required';
  else if (subject.length > LEAD_EMAIL_SUBJECT_MAX) errors.subject = `Subject must be at most ${LEAD_EMAIL_SUBJECT_MAX} characters`;
  else if (/[\r\n]/.test(subject)) errors.subject = 'Subject must be one line';
  else {
    const problem = mergeFieldProblem(subject);
    if (problem) errors.subject = problem;
  }
  const body = values.body.trim();
  if (!body) errors.body = 'Message is required';
  else if (body.length > LEAD_EMAIL_BODY_MAX)
    errors.body = `Message must be at most ${LEAD_EMAIL_BODY_MAX.toLocaleString('en-US')} characters`;
  else {
    const problem = mergeFieldProblem(body);
    if (problem) errors.body = problem;
  }
  return errors;
}

export function checkTemplateName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Name is required';
  if (trimmed.length > EMAIL_TEMPLATE_NAME_MAX) return `Name must be at most ${EMAIL_TEMPLATE_NAME_MAX} characters`;
  return undefined;
}
