// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Client features may not import each other (docs/conventions.md, "Layers"): one rule per
 * feature. A feature's data hooks (its api/ folder) are its face to the others: the lead page
 * shows tasks and stages, the Overview tasks.
 */
const featureDir = 'src/client/features';
const features = (() => {
  try {
    return readdirSync(featureDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
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
            {
              regex: `(^#client/features/|/features/|^\\.\\./)${other}/(?!api/)`,
              message: "Features do not import each other, only each other's api/ hooks; move shared code to components/ or lib/.",
            },
          ]),
      },
    ],
  },
}));

/**
 * The server's layers, lowest first: lib (helpers) → config, logger, app-root → db →
 * analytics, realtime, mail, booking, calendars, webhooks, leads, appointments, jobs → deps.ts (what the app hands the HTTP layer) → http
 * (plumbing) → audit, auth (session middleware) → routes → app.ts, main.ts, cli/. Domain modules
 * may throw AppError (lib/app-error.ts). An import may only point down, so a low layer never learns about a higher
 * one (docs/architecture.md draws the picture). Tests may import anything.
 */
const S = './src/server';
const TOP = [`${S}/app.ts`, `${S}/main.ts`, `${S}/cli`];
const DOMAIN = [
  `${S}/analytics`,
  `${S}/realtime`,
  `${S}/jobs`,
  `${S}/mail`,
  `${S}/booking`,
  `${S}/outbound`,
  `${S}/calendars`,
  `${S}/webhooks`,
  `${S}/leads`,
  `${S}/appointments`,
  `${S}/pipeline`,
  `${S}/conversations`,
];
const serverLayers = {
  files: ['src/server/**/*.ts'],
  ignores: ['src/server/**/*.test.ts', 'src/server/test/**'],
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        zones: [
          { target: `${S}/lib`, from: S, except: ['./lib'], message: 'lib/ holds helpers that import nothing else of the server.' },
          {
            target: [`${S}/config.ts`, `${S}/logger.ts`, `${S}/app-root.ts`],
            from: S,
            // The allow list of outbound hosts is parsed where the fetcher that obeys it lives.
            except: ['./lib', './config.ts', './logger.ts', './app-root.ts', './outbound/address-policy.ts'],
            message: 'Configuration and logging sit under everything else.',
          },
          {
            target: `${S}/db`,
            from: S,
            except: ['./db', './lib', './config.ts', './logger.ts', './app-root.ts'],
            message: 'db/ may use lib/, config and the logger only: it knows nothing of HTTP, auth or features.',
          },
          {
            // A domain rule refuses with the API's error vocabulary from lib/app-error.ts, nothing of http/.
            target: DOMAIN,
            from: [`${S}/deps.ts`, `${S}/http`, `${S}/audit`, `${S}/auth`, `${S}/routes`, ...TOP],
            message:
              'Domain modules sit under the HTTP layer: pass them what they need instead (they may throw AppError, lib/app-error.ts).',
          },
          {
            target: `${S}/deps.ts`,
            from: [`${S}/http`, `${S}/audit`, `${S}/auth`, `${S}/routes`, ...TOP],
            message: 'deps.ts names the domain parts handed to the HTTP layer: it imports nothing above the domain.',
          },
          {
            target: `${S}/http`,
            from: [`${S}/audit`, `${S}/auth`, `${S}/routes`, ...TOP],
            message: 'http/ is plumbing: it may not import audit, auth, routes or the app.',
          },
          { target: `${S}/audit`, from: [`${S}/auth`, `${S}/routes`, ...TOP], message: 'audit/ may not import auth, routes or the app.' },
          { target: `${S}/auth`, from: [`${S}/routes`, ...TOP], message: 'auth/ may not import routes or the app.' },
          { target: `${S}/routes`, from: TOP, message: 'Routes may not import the app, main or the CLI.' },
        ],
      },
    ],
  },
};

/** Hono's `c.var` copies every request variable into a new object on each read. */
const cVar = {
  selector: "MemberExpression[object.name='c'][property.name='var']",
  message: "Read a request variable with c.get('name'), not c.var.",
};

/**
 * A route file parses, calls and answers (docs/conventions.md, "Routes"): it exports its router
 * (`export const leadRoutes = createRouter()…`, what app.ts mounts) and nothing else. A rule, a
 * message or a helper another file needs lives in its domain folder, with its test. The rule
 * replaces the server's no-restricted-syntax for these files, so it repeats the c.var check.
 */
const ONLY_THE_ROUTER =
  'A route file exports only its router (`export const xRoutes = …`): move this to its domain folder (docs/conventions.md, "Routes").';
const routesExportTheirRouter = {
  files: ['src/server/routes/**/*.ts'],
  ignores: ['src/server/routes/**/*.test.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      cVar,
      ...[
        // A second export of any kind, after the first.
        'ExportNamedDeclaration ~ ExportNamedDeclaration',
        // The one export: a const named …Routes, alone in its declaration.
        'ExportNamedDeclaration > :not(VariableDeclaration)',
        'ExportNamedDeclaration > VariableDeclaration[kind!="const"]',
        'ExportNamedDeclaration > VariableDeclaration[declarations.length>1]',
        'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name!=/Routes$/]',
        // `export { x }`, `export { x } from '…'`, `export * from '…'`, `export default …`.
        'ExportNamedDeclaration[specifiers.length>0]',
        'ExportAllDeclaration',
        'ExportDefaultDeclaration',
      ].map((selector) => ({ selector, message: ONLY_THE_ROUTER })),
    ],
  },
};

/**
 * zod one way: `import * as z from 'zod'`. The schemas name themselves with zod's own
 * `.meta({ id })` registry, which @hono/zod-openapi reads to build /api/openapi.json, so its
 * re-exported (extended) `z` adds nothing we use (docs/conventions.md, "The contract").
 */
const zodImports = [
  {
    name: '@hono/zod-openapi',
    importNames: ['z'],
    message: "Import zod as `import * as z from 'zod'` (the OpenAPI document reads zod's own .meta registry).",
  },
];

/**
 * The public pages ship as little JavaScript as they can (`npm run check:weight` holds `/` to
 * its budget): nothing under src/client/public may import the admin app's libraries or code,
 * nor zod at run time (the forms use the small checkers of src/shared/rules).
 */
const publicPages = {
  files: ['src/client/public/**/*.{ts,tsx}'],
  ignores: ['src/client/public/**/*.test.{ts,tsx}'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@radix-ui/*', '@tanstack/*', 'date-fns', 'date-fns/*', 'react-router', 'zod', 'zod/*'],
            message: "The public pages do not load the admin app's libraries (or zod): keep / light.",
          },
          {
            group: ['\\#client/app/*', '\\#client/features/*', '**/client/app/*', '**/client/features/*'],
            message: 'The public pages do not import the admin app.',
          },
          {
            group: ['\\#client/components/ui/*', '!\\#client/components/ui/toaster.tsx', '!\\#client/components/ui/toast-store.ts'],
            message: 'Of the UI primitives, the public pages use only the toasts; the rest are built on Radix.',
          },
          {
            group: ['\\#shared/schemas/*'],
            allowTypeImports: true,
            message: 'The shared schemas are zod: import their types only, and check input with #shared/rules.',
          },
        ],
      },
    ],
  },
};

/** Keeps zod out of `files`: no zod itself, and only types from the schema modules (`schemas`). */
const withoutZod = ({ files, ignores, schemas, zodMessage, schemasMessage }) => ({
  files,
  ignores,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['zod', 'zod/*'], message: zodMessage },
          { group: [schemas], allowTypeImports: true, message: schemasMessage },
        ],
      },
    ],
  },
});

/**
 * Nor does the admin app load zod (26 KB gzipped, more than half a page's budget in
 * `npm run check:weight`): its forms use the checkers of src/shared/rules, which a property test
 * holds to the server's schemas; the schemas give it their types.
 */
const adminWithoutZod = withoutZod({
  files: ['src/client/{app,components,features,lib}/**/*.{ts,tsx}'],
  ignores: ['src/client/**/*.test.{ts,tsx}'],
  schemas: '\\#shared/schemas/*',
  zodMessage: 'The admin app does not load zod: check forms with #shared/rules.',
  schemasMessage: 'The shared schemas are zod: import their types only; values come from #shared/constants, checks from #shared/rules.',
});

/** What the browser imports from src/shared outside schemas/ stays free of zod too. */
const sharedWithoutZod = withoutZod({
  files: ['src/shared/**/*.ts'],
  ignores: ['src/shared/schemas/**', 'src/shared/**/*.test.ts'],
  schemas: '**/schemas/*',
  zodMessage: 'Only src/shared/schemas/ uses zod: the browser imports the rest.',
  schemasMessage: 'Only types from the schemas here: the browser imports this module, and the schemas are zod.',
});

/**
 * The admin app fetches one way (docs/conventions.md, "Client features"): each operation is a
 * hook in its feature's `api/` folder, and every query key comes from `lib/query-keys.ts`, so
 * one feature refreshes another's cache by name. Pages and components call those hooks.
 */
const typedOutQueryKey = {
  selector: "Property[key.name='queryKey'] > ArrayExpression",
  message: 'Query keys come from queryKeys (src/client/lib/query-keys.ts), not arrays typed out here.',
};
const adminFetching = [
  {
    files: ['src/client/{app,components,features,lib}/**/*.{ts,tsx}'],
    ignores: ['src/client/**/*.test.{ts,tsx}', 'src/client/lib/query-keys.ts'],
    rules: { 'no-restricted-syntax': ['error', typedOutQueryKey] },
  },
  {
    // lib/ too: the data hooks the whole app shares (the session, the team) are in lib/api/.
    files: ['src/client/{app,components,features,lib}/**/*.{ts,tsx}'],
    ignores: ['src/client/**/api/**', 'src/client/**/*.test.{ts,tsx}', 'src/client/lib/api-client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        typedOutQueryKey,
        {
          selector:
            "ImportDeclaration[source.value='@tanstack/react-query'] > ImportSpecifier[imported.name=/^use(Suspense)?(Infinite)?(Query|Queries|Mutation)$/]",
          message: "Queries and mutations live in the feature's api/ folder: call its hook (e.g. features/leads/api/get-leads.ts).",
        },
        {
          selector: "ImportDeclaration[source.value=/lib\\/api-client/] > ImportSpecifier[imported.name='apiRequest']",
          message: "Requests live in the feature's api/ folder: call its hook (e.g. features/leads/api/get-leads.ts).",
        },
      ],
    },
  },
];

/** components/ and lib/ sit under the features: they are handed what a feature knows (a callback, a value). */
const clientLayers = {
  files: ['src/client/{components,lib}/**/*.{ts,tsx}'],
  ignores: ['src/client/**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['\\#client/features/*', '\\#client/app/*', '**/client/features/*', '**/client/app/*'],
            message: 'components/ and lib/ do not import features or the app: take what they need as props or arguments.',
          },
        ],
      },
    ],
  },
};

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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { type X }` leaves `import 'module'` behind: its side effects (and bytes) stay.
      '@typescript-eslint/no-import-type-side-effects': 'error',
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
        { patterns: [{ group: ['**/server/*'], allowTypeImports: true, message: 'The client imports only types from the server.' }] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: zodImports,
          patterns: [
            {
              group: ['\\#client/*', '**/server/*', '**/client/*'],
              message: 'src/shared is the contract: it imports neither server nor client.',
            },
            {
              group: ['node:*', 'react', 'react-dom', 'pg', '@electric-sql/*', 'hono', 'hono/*'],
              message: 'src/shared is pure: no Node, DOM or I/O.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: zodImports }],
      'no-restricted-syntax': ['error', cVar],
    },
  },
  routesExportTheirRouter,
  serverLayers,
  publicPages,
  clientLayers,
  adminWithoutZod,
  sharedWithoutZod,
  ...adminFetching,
  ...featureIsolation,
  {
    // The unit and API projects share a module cache per worker (vitest.config.ts): a module
    // mock would reach only the files that import after it, and leak into them.
    files: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'unmock'].map((property) => ({
          object: 'vi',
          property,
          message: 'No module mocks (docs/testing.md): watch the code through a seam it offers, or pass it what it needs.',
        })),
      ],
    },
  },
);
