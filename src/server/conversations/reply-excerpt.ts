/**
 * The start of a reply, for the email that tells its owner "Jane Doe replied" (mail/templates):
 * its text on one line, at most 500 characters, cut after a whole word (when one ends past the
 * 300th character) with an ellipsis.
 */
export function replyExcerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= 500) return text;
  const cut = text.slice(0, 500);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 300 ? cut.lastIndexOf(' ') : 500)}…`;
}
