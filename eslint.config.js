// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Client features may not import each other (conventions 1 and 7): one rule per feature. */
const featureDir = 'src/client/features';
const features = (() => {
  try {
    return readdirSync(featureDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
})();
const featureIsolation = features.map((feature) => ({
  files: [`${featureDir}/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: features
          .filter((other) => other !== feature)
          .flatMap((other) => [
            { group: [`#client/features/${other}/*`, `**/features/${other}/*`, `../${other}/*`], message: 'Features do not import each other; move shared code to components/ or lib/.' },
          ]),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.test-data/', 'test-results/', 'playwright-report/', 'data/', 'drizzle/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The client reaches the server only through HTTP; it may import the server's types.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['#server/*', '**/server/*'], allowTypeImports: true, message: 'The client imports only types from the server.' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['#server/*', '#client/*', '**/server/*', '**/client/*'], message: 'src/shared is the contract: it imports neither server nor client.' },
            { group: ['node:*', 'react', 'react-dom', 'pg', '@electric-sql/*', 'hono', 'hono/*'], message: 'src/shared is pure: no Node, DOM or I/O.' },
          ],
        },
      ],
    },
  },
  ...featureIsolation,
);
