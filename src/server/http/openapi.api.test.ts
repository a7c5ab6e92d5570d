import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

/**
 * /api/openapi.json as the tools that read it see it: a valid OpenAPI 3 document, whose shared
 * schemas are named components referenced by `$ref` (so it stays small and code generators
 * name their types), with every reference resolving.
 */

/**
 * Most bytes the document may weigh, as served. Measured with 96 operations: 519,095 bytes
 * when every schema was inlined (the error envelope alone 244 times), 137,939 with the shared
 * schemas as components; 163,606 with 101 (the email templates added 4.7 kB of plain paths, nothing
 * inlined); 187,232 with 112 (the conversation threads, the pipeline's stages and lost reasons,
 * nothing inlined); 203,374 with 119 (tasks and My tasks, the board, the Analytics pipeline,
 * nothing inlined); 219,648 with 122 (API keys: the bearer scheme, and each operation a key may
 * call lists its scope and the key's 403 and 429; nothing inlined). Past this, look for a schema
 * inlined again before raising it.
 */
const MAX_DOCUMENT_BYTES = 240_000;

type Schema = { $ref?: string; [key: string]: unknown };
type Response = { content?: Record<string, { schema: Schema }> };
type Operation = { requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, Response> };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** A package's command-line script, as `npx` would run it. */
const binOf = (pkg: string, file: string) => path.join(path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), file);
const database = useTestDatabase();
let text: string;
let doc: Doc;
beforeAll(async () => {
  const { app } = createTestApp(database);
  const res = await app.request('/api/openapi.json');
  expect(res.status).toBe(200);
  text = await res.text();
  doc = JSON.parse(text) as Doc;
});

/** Every `$ref` anywhere in `value`. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

describe('GET /api/openapi.json as a document', () => {
  it('is valid OpenAPI 3', async () => {
    const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator['validate']>[0]);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.0\./);
  });

  it(`stays under ${MAX_DOCUMENT_BYTES} bytes`, () => {
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_DOCUMENT_BYTES);
  });

  it('resolves every $ref to a component', () => {
    const refs = new Set(refsIn(doc));
    expect(refs.size).toBeGreaterThan(50);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty([ref.slice('#/components/schemas/'.length)]);
    }
  });

  it('names the error envelope once and refers to it from every error response', () => {
    expect(doc.components.schemas.ErrorResponse).toMatchObject({ type: 'object', properties: { error: { type: 'object' } } });
    // Its codes are written out once in the whole document.
    expect(text.split('"validation_failed"').length - 1).toBe(1);
    let errors = 0;
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        errors++;
        expect({ key, status, schema: response.content?.['application/json']?.schema }).toEqual({
          key,
          status,
          schema: { $ref: '#/components/schemas/ErrorResponse' },
        });
      }
    }
    expect(errors).toBeGreaterThan(100);
  });

  it('refers to the shared schemas of request and response bodies by name', () => {
    const submit = doc.paths['/api/public/leads']?.post;
    expect(submit?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/PublicLeadRequest' });
    expect(doc.paths['/api/leads/{id}']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/LeadDetail',
    });
    expect(doc.components.schemas.LeadListResponse).toMatchObject({
      properties: { leads: { type: 'array', items: { $ref: '#/components/schemas/Lead' } } },
    });
  });

  it('inlines no body but a route’s own one-property acknowledgement ({ ok: true }, { id })', () => {
    const inlined: string[] = [];
    for (const { key, op } of operations()) {
      const request = op.requestBody?.content['application/json']?.schema;
      if (request && !request.$ref) inlined.push(`${key} request`);
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        // A schema from src/shared/schemas without .meta({ id }) would show up here.
        const oneProperty = Object.keys((schema?.properties as object | undefined) ?? {}).length === 1;
        if (schema && !schema.$ref && !oneProperty) inlined.push(`${key} ${status}`);
      }
    }
    expect(inlined).toEqual([]);
  });

  it('gives openapi-typescript a named type for each component, usable from TypeScript', () => {
    // Through the command line tools, as a developer would run them (importing them here would
    // add the compiler's own types to every `tsc` of the project).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-openapi-'));
    try {
      writeFileSync(path.join(dir, 'openapi.json'), text);
      const generate = spawnSync(process.execPath, [binOf('openapi-typescript', 'bin/cli.js'), 'openapi.json', '--output', 'api.d.ts'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(generate.status, generate.stderr).toBe(0);
      const source = readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
      // The members of `components.schemas`, one per line, indented by eight spaces.
      const schemas = /^export interface components \{\n {4}schemas: \{\n([\s\S]*?)\n {4}\};/m.exec(source)?.[1] ?? '';
      const names = [...schemas.matchAll(/^ {8}(\w+): /gm)].map((m) => m[1]);
      expect(names.sort()).toEqual(Object.keys(doc.components.schemas).sort());
      // Operations use the names: the lead's page answers components["schemas"]["LeadDetail"].
      expect(source).toContain('"application/json": components["schemas"]["LeadDetail"];');
      expect(source).toContain('"application/json": components["schemas"]["ErrorResponse"];');
      // And a program can use them.
      writeFileSync(
        path.join(dir, 'use.ts'),
        [
          "import type { components, operations } from './api';",
          "type Schemas = components['schemas'];",
          "export const code: Schemas['ErrorResponse']['error']['code'] = 'validation_failed';",
          "export const lead = (detail: Schemas['LeadDetail']): Pick<Schemas['Lead'], 'id' | 'status'> => detail;",
          "export type LeadPage = operations[keyof operations]['responses'];",
          '',
        ].join('\n'),
      );
      const check = spawnSync(process.execPath, [binOf('typescript', 'bin/tsc'), '--noEmit', '--strict', 'use.ts'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(check.stdout + check.stderr).toBe('');
      expect(check.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Two processes on a busy 2-core machine.
  }, 60_000);
});
