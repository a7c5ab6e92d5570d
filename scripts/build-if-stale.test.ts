import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script, without types
import { sourcesHash } from './build-if-stale.mjs';

describe('the build stamp', () => {
  it('changes with any source, script or lockfile, and not with a test', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'crm-stamp-'));
    mkdirSync(path.join(root, 'src/server'), { recursive: true });
    mkdirSync(path.join(root, 'scripts'));
    writeFileSync(path.join(root, 'src/server/main.ts'), 'export {};\n');
    writeFileSync(path.join(root, 'scripts/prerender.ts'), '// prerender\n');
    writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
    const first = (sourcesHash as (root: string) => string)(root);
    expect(sourcesHash(root)).toBe(first);

    writeFileSync(path.join(root, 'src/server/main.process.test.ts'), 'test\n');
    expect(sourcesHash(root)).toBe(first);

    writeFileSync(path.join(root, 'src/server/main.ts'), 'export const x = 1;\n');
    const second = sourcesHash(root);
    expect(second).not.toBe(first);
    writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
    expect(sourcesHash(root)).not.toBe(second);
    // A file renamed is a change, even with the same contents.
    writeFileSync(path.join(root, 'scripts/prerender2.ts'), '// prerender\n');
    expect(sourcesHash(root)).not.toBe(second);
  });
});
