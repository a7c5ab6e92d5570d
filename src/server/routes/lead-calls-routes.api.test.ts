import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

/** Log a call: how it went, its minutes and notes, on the lead's timeline by who logged it. */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let leadId: string;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails cascade`);
  t = createTestApp(database);
  await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
  cookie = await signIn(t.json, 'sam@keystone.test', 'sam-password');
  leadId = ((await (await t.json('POST', '/api/leads', validLead(), { cookie })).json()) as { id: string }).id;
});

const log = (body: unknown, id = leadId) => t.json('POST', `/api/leads/${id}/calls`, body, { cookie });
const fieldsOf = async (res: Response) => ((await res.json()) as { error: { fields?: Record<string, string> } }).error.fields;

describe('POST /api/leads/{id}/calls', () => {
  it('logs a call on the timeline, by who logged it, with its minutes and notes', async () => {
    const res = await log({ outcome: 'left_voicemail', duration_minutes: 3, notes: '  Asked for the survey.  ' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ outcome: 'left_voicemail', duration_minutes: 3, notes: 'Asked for the survey.' });
    expect((await log({ outcome: 'no_answer' })).status).toBe(201);
    const { entries } = (await (await t.json('GET', `/api/leads/${leadId}/timeline`, undefined, { cookie })).json()) as {
      entries: TimelineEntry[];
    };
    expect(entries.filter((e) => e.kind === 'call').map(({ id: _id, at: _at, ...e }) => e)).toEqual([
      { kind: 'call', actor: 'Sam Staff', outcome: 'no_answer', duration_minutes: null, notes: null },
      { kind: 'call', actor: 'Sam Staff', outcome: 'left_voicemail', duration_minutes: 3, notes: 'Asked for the survey.' },
    ]);
  });

  it('refuses what is not a call, with the field that is wrong, and an unknown lead', async () => {
    expect(await fieldsOf(await log({ outcome: 'busy' }))).toEqual({ outcome: 'Choose how the call went' });
    expect(await fieldsOf(await log({ outcome: 'connected', duration_minutes: 601 }))).toEqual({
      duration_minutes: 'Duration must be whole minutes from 0 to 600',
    });
    expect(await fieldsOf(await log({ outcome: 'connected', duration_minutes: 2.5 }))).toEqual({
      duration_minutes: 'Duration must be whole minutes from 0 to 600',
    });
    expect(await fieldsOf(await log({ outcome: 'connected', notes: 'x'.repeat(5001) }))).toEqual({
      notes: 'Notes must be at most 5,000 characters',
    });
    expect((await log({ outcome: 'connected' }, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.json('POST', `/api/leads/${leadId}/calls`, { outcome: 'connected' })).status).toBe(401);
  });
});
