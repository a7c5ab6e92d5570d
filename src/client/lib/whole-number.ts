/**
 * A whole number typed into a text field, 0 to `max`: undefined when the field is empty,
 * 'invalid' for anything else (said under the field before anything is sent).
 */
export function wholeNumberIn(text: string, max: number): number | undefined | 'invalid' {
  if (text.trim() === '') return undefined;
  return /^\s*\d{1,6}\s*$/.test(text) && Number(text) <= max ? Number(text) : 'invalid';
}
