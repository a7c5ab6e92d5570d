/**
 * Finds the web addresses in plain text (a note, a customer's message) so they can be shown
 * as links without ever treating the text as HTML: the caller renders each part as a text
 * node or as an <a> whose href is the parsed URL. Only http and https become links; anything
 * else (`javascript:`, `data:`, `vbscript:` …) stays text.
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// A candidate starts with http:// or https:// at a word boundary ("xhttps://" is not one) and
// runs to whitespace or a character that cannot end an address in running text.
const CANDIDATE = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;
// Punctuation that ends a sentence rather than the address ("see https://a.com/x.").
const TRAILING = /[.,;:!?*]+$/;

/** Drops a closing bracket the address did not open ("(see https://a.com/x)"), and trailing punctuation. */
function trimEnd(candidate: string): string {
  let url = candidate;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
    ] as const) {
      if (url.endsWith(close) && count(url, close) > count(url, open)) url = url.slice(0, -1);
    }
    if (url === before) return url;
  }
}

const count = (text: string, char: string) => text.split(char).length - 1;

/** The address as a link target, or null when it does not parse as an http(s) URL with a host. */
function safeHref(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  return url.href;
}

/** The text cut into plain parts and links, in order; joined, the parts' text is the input. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = '';
  let last = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const candidate = trimEnd(match[0]);
    const href = safeHref(candidate);
    if (!href) continue;
    plain += text.slice(last, match.index);
    if (plain) parts.push({ kind: 'text', text: plain });
    plain = '';
    parts.push({ kind: 'link', text: candidate, href });
    last = match.index + candidate.length;
  }
  plain += text.slice(last);
  if (plain) parts.push({ kind: 'text', text: plain });
  return parts;
}
