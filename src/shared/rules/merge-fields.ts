/**
 * Merge fields: the `{{name}}` placeholders a message or an email template may hold, filled in
 * for the lead and the writer when the message is queued. `{{booking_link}}` alone is filled
 * when the message is sent (a fresh link made for that message), so what is stored of a sent
 * message keeps the placeholder, never the link.
 */
export const MERGE_FIELDS = ['first_name', 'full_name', 'property_address', 'booking_link', 'my_name', 'my_phone'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

/** What each field becomes, as the template page explains it. */
export const MERGE_FIELD_HELP: Record<MergeField, string> = {
  first_name: 'The lead’s first name',
  full_name: 'The lead’s full name',
  property_address: 'The lead’s property address',
  booking_link: 'A booking link for the lead, good for 7 days',
  my_name: 'Your name',
  my_phone: 'Your phone (your account page), else the firm’s',
};

export const BOOKING_LINK_FIELD = '{{booking_link}}';

/** `{{ name }}` with optional spaces inside the braces. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

const known = (name: string): name is MergeField => (MERGE_FIELDS as readonly string[]).includes(name);

const LIST = `${MERGE_FIELDS.slice(0, -1)
  .map((f) => `{{${f}}}`)
  .join(', ')} or {{${MERGE_FIELDS.at(-1)}}}`;

/** Why `text` cannot be sent as written (the first unknown field), or undefined when every field is known. */
export function mergeFieldProblem(text: string): string | undefined {
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!known(name)) return `Unknown merge field ${match[0].slice(0, 40)}: use ${LIST}`;
  }
  return undefined;
}

/** The fields `text` uses, each once. */
export function mergeFieldsIn(text: string): MergeField[] {
  const found = new Set<MergeField>();
  for (const match of text.matchAll(PLACEHOLDER)) if (known(match[1] ?? '')) found.add(match[1] as MergeField);
  return [...found];
}

/**
 * `text` with each field it holds replaced by its value, in one pass: a value that itself
 * looks like a field (a lead who typed "{{my_phone}}" as their name) is not filled in again.
 * A field with no value given is left as written (`{{booking_link}}` until the message is sent).
 */
export function fillMergeFields(text: string, values: Partial<Record<MergeField, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (known(name) ? (values[name] ?? whole) : whole));
}

/** A person's first name, as the firm's emails greet them. */
export const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] ?? fullName;
