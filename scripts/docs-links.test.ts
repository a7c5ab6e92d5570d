import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ send readers to files and headings of this repository: every relative
 * link must lead to a file (and its #heading, when it names one), and every path written in
 * code style from the repository's root (`src/…`, `tests/…`, `docs/…`) must exist.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const docs = ['README.md', ...walk('docs')];

function walk(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

/** The text outside fenced code blocks (their contents are examples, not links). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

describe.each(docs)('%s', (doc) => {
  const text = prose(readFileSync(path.join(ROOT, doc), 'utf8'));

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [file, anchor] = target!.split('#');
      const resolved = file ? path.resolve(ROOT, path.dirname(doc), decodeURI(file)) : path.join(ROOT, doc);
      if (!existsSync(resolved)) broken.push(target!);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const missing = [...text.matchAll(/`((?:src|tests|scripts|docs|deploy|bench|drizzle)\/[\w./-]+)`/g)]
      .map((m) => m[1]!)
      .filter((p) => !p.includes('NNN') && !existsSync(path.join(ROOT, p))); // NNN: a pattern, as in docs/decisions/NNN-title.md
    expect(missing).toEqual([]);
  });
});
