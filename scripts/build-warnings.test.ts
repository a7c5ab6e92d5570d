import { createLogger, type ResolvedConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { failOnViteWarnings, failOnWarning } from './build-warnings.ts';

describe('the build prints no warning', () => {
  it('lets the allowed "use client" directives pass, and fails the build on any other warning', () => {
    expect(() =>
      failOnWarning({ code: 'MODULE_LEVEL_DIRECTIVE', message: 'Module level directives cause errors when bundled' }),
    ).not.toThrow();
    expect(() => failOnWarning({ code: 'IMPORT_IS_UNDEFINED', message: 'useOptimistic is undefined' })).toThrow(
      /The build warned: IMPORT_IS_UNDEFINED: useOptimistic is undefined/,
    );
    expect(() => failOnWarning({ message: 'no code at all' })).toThrow(/The build warned/);
  });

  it("makes Vite's own warnings fail a build", () => {
    const plugin = failOnViteWarnings();
    expect(plugin.apply).toBe('build');
    const config = { logger: createLogger('silent') } as unknown as ResolvedConfig;
    (plugin.configResolved as (c: ResolvedConfig) => void)(config);
    expect(() => config.logger.warn('Some chunks are larger than 500 kB')).toThrow(/The build warned: Some chunks/);
    expect(() => config.logger.warnOnce('once')).toThrow(/The build warned: once/);
  });
});
