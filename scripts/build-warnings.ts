import type { RollupLog } from 'rolldown';
import type { Plugin } from 'vite';

/**
 * The build prints no warning: a new one fails it, so a first `npm start` never shows a new user
 * something that reads as an error. Allowed, each with its reason:
 * - MODULE_LEVEL_DIRECTIVE: libraries (Radix, TanStack Query) start their modules with
 *   "use client", a React Server Components marker that means nothing to a browser bundle.
 */
const ALLOWED = new Set(['MODULE_LEVEL_DIRECTIVE']);

const refusal = (text: string) =>
  new Error(`The build warned: ${text}\nFix its cause, or allow it with its reason in scripts/build-warnings.ts.`);

/** Rolldown's warnings (rolldownOptions.onwarn): the allowed ones dropped, any other fails the build. */
export function failOnWarning(warning: RollupLog): void {
  if (warning.code !== undefined && ALLOWED.has(warning.code)) return;
  throw refusal(`${warning.code ?? 'warning'}: ${warning.message}`);
}

/** Vite's own warnings in a build (a chunk too large, a file it cannot find…) fail it too; the dev server still only prints them. */
export function failOnViteWarnings(): Plugin {
  return {
    name: 'fail-on-build-warnings',
    apply: 'build',
    configResolved(config) {
      const fail = (message: string) => {
        throw refusal(message);
      };
      config.logger.warn = fail;
      config.logger.warnOnce = fail;
    },
  };
}
