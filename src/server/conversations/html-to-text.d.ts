// The part of html-to-text (which ships no types) the reply reader uses.
declare module 'html-to-text' {
  type Selector = { selector: string; format?: string; options?: Record<string, unknown> };
  export function convert(
    html: string,
    options?: { wordwrap?: number | false; selectors?: Selector[]; limits?: Record<string, unknown> },
  ): string;
}
