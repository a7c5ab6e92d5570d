import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The tracker runs on every public page: it must stay under 2 KB gzipped, minified as the
// production build minifies it, with everything it imports.
describe('the analytics tracker', () => {
  it('is under 2 KB gzipped with its imports', async () => {
    const result = await build({
      stdin: {
        contents: "import { startTracker } from './src/client/public/analytics-tracker.ts'; startTracker();",
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
      target: 'es2022',
      logLevel: 'silent',
    });
    const bytes = gzipSync(result.outputFiles[0]!.contents).length;
    console.log(`analytics tracker: ${bytes} bytes gzipped`);
    expect(bytes).toBeGreaterThan(500); // it really bundled the tracker
    expect(bytes).toBeLessThan(2048);
  });
});
