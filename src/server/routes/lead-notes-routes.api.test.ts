import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorResponse } from '#shared/schemas/error';
import type { Lead } from '#shared/schemas/lead';
import { adminListSchema, noteSchema, type Note, type TimelineResponse } from '#shared/schemas/lead-workspace';
import { ensureAdmin } from '../auth/accounts.ts';
import { deleteUser } from '../db/queries/users-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let ann: string;
let bob: string;
let annId: string;
let lead: Lead;
let otherLead: Lead;

beforeAll(() => {
  t = createTestApp(database);
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails cascade`);
  annId = (await ensureAdmin(database.db, 'ann@example.com', 'ann-password', 'owner', 'Ann Archer')).user.id;
  await ensureAdmin(database.db, 'bob@example.com', 'bob-password', 'staff', 'Bob Baker');
  ann = await signIn(t.json, 'ann@example.com', 'ann-password');
  bob = await signIn(t.json, 'bob@example.com', 'bob-password');
  lead = (
    await as<Lead>(ann, 'POST', '/api/leads', { full_name: 'Jane Doe', email: 'jane@example.com', phone: '555', property_types: ['land'] })
  ).body;
  otherLead = (
    await as<Lead>(ann, 'POST', '/api/leads', { full_name: 'John Roe', email: 'john@example.com', phone: '555', property_types: ['land'] })
  ).body;
});

async function as<T>(cookie: string, method: string, path: string, body?: unknown) {
  const res = await t.json(method, path, body, { cookie });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const addNote = (cookie: string, body: string, leadId = lead.id) => as<Note>(cookie, 'POST', `/api/leads/${leadId}/notes`, { body });

describe('lead notes', () => {
  it('adds a note with its author, keeping its line breaks and trimming its ends', async () => {
    const res = await addNote(ann, '  Called her.\n\n  She wants the report by Friday.\r\n  ');
    expect(res.status).toBe(201);
    expect(noteSchema.parse(res.body)).toEqual({
      id: expect.any(String),
      lead_id: lead.id,
      body: 'Called her.\n\n  She wants the report by Friday.',
      author_id: annId,
      author_email: 'ann@example.com',
      author_name: 'Ann Archer',
      created_at: res.body.created_at,
      updated_at: res.body.created_at,
    });
    const timeline = await as<TimelineResponse>(bob, 'GET', `/api/leads/${lead.id}/timeline`);
    expect(timeline.body.entries[0]).toMatchObject({ kind: 'note', actor: 'Ann Archer', note: res.body });
  });

  it('takes 20,000 characters and refuses more, or nothing', async () => {
    expect((await addNote(ann, 'x'.repeat(20_000))).status).toBe(201);
    const long = await as<ErrorResponse>(ann, 'POST', `/api/leads/${lead.id}/notes`, { body: 'x'.repeat(20_001) });
    expect(long.status).toBe(400);
    expect(long.body.error.fields).toEqual({ body: 'Note must be at most 20,000 characters' });
    for (const body of [{ body: '   \n ' }, {}, { body: 'a\u0000b' }]) {
      const res = await as<ErrorResponse>(ann, 'POST', `/api/leads/${lead.id}/notes`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.fields?.body).toBeDefined();
    }
  });

  it('lets its author change it (updated_at moves) and delete it', async () => {
    const note = (await addNote(ann, 'First draft')).body;
    // Written a minute ago, so the edit's time differs visibly.
    await execute(
      database.db,
      sql`update lead_notes set created_at = created_at - interval '1 minute', updated_at = updated_at - interval '1 minute'`,
    );
    const edited = await as<Note>(ann, 'PATCH', `/api/leads/${lead.id}/notes/${note.id}`, { body: 'Second draft\nwith two lines' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: note.id, body: 'Second draft\nwith two lines', author_email: 'ann@example.com' });
    expect(Date.parse(edited.body.created_at)).toBe(Date.parse(note.created_at) - 60_000);
    expect(Date.parse(edited.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(note.updated_at));
    const deleted = await as<{ id: string }>(ann, 'DELETE', `/api/leads/${lead.id}/notes/${note.id}`);
    expect(deleted).toEqual({ status: 200, body: { id: note.id } });
    expect((await as(ann, 'DELETE', `/api/leads/${lead.id}/notes/${note.id}`)).status).toBe(404);
  });

  it('refuses another admin with 403, and leaves the note as it was', async () => {
    const note = (await addNote(ann, 'Mine')).body;
    for (const [method, body] of [
      ['PATCH', { body: 'Yours now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await as<ErrorResponse>(bob, method, `/api/leads/${lead.id}/notes/${note.id}`, body);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', message: 'You can only change your own notes.' });
    }
    const timeline = await as<TimelineResponse>(ann, 'GET', `/api/leads/${lead.id}/timeline`);
    expect(timeline.body.entries[0]).toMatchObject({ kind: 'note', note: { body: 'Mine', updated_at: note.updated_at } });
  });

  it('answers 404 for an unknown lead or note, and for a note of another lead', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const add = await as<ErrorResponse>(ann, 'POST', `/api/leads/${unknown}/notes`, { body: 'Hello' });
    expect(add.status).toBe(404);
    expect(add.body.error).toMatchObject({ code: 'not_found', message: 'Lead not found.' });
    const note = (await addNote(ann, 'On John', otherLead.id)).body;
    for (const path of [
      `/api/leads/${lead.id}/notes/${note.id}`,
      `/api/leads/${lead.id}/notes/${unknown}`,
      `/api/leads/${unknown}/notes/${note.id}`,
    ]) {
      for (const [method, body] of [
        ['PATCH', { body: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await as<ErrorResponse>(ann, method, path, body);
        expect({ method, path, status: res.status, message: res.body.error.message }).toEqual({
          method,
          path,
          status: 404,
          message: 'Note not found.',
        });
      }
    }
    expect((await as(ann, 'PATCH', `/api/leads/${lead.id}/notes/nope`, { body: 'x' })).status).toBe(400);
  });

  it('keeps the notes of a removed admin, by nobody, and lets no one change them', async () => {
    const note = (await addNote(bob, 'Bob was here')).body;
    await deleteUser(database.db, 'bob@example.com');
    const timeline = await as<TimelineResponse>(ann, 'GET', `/api/leads/${lead.id}/timeline`);
    expect(timeline.body.entries[0]).toMatchObject({
      kind: 'note',
      actor: null,
      note: { id: note.id, author_id: null, author_email: null },
    });
    expect((await as(ann, 'PATCH', `/api/leads/${lead.id}/notes/${note.id}`, { body: 'x' })).status).toBe(403);
  });
});

describe('GET /api/admins', () => {
  it('lists every active admin by name, for the owner picker', async () => {
    // Sorted by name, not by email.
    await ensureAdmin(database.db, 'zed@example.com', 'zed-password', 'staff', 'Aaron Able');
    const res = await as<unknown>(bob, 'GET', '/api/admins');
    expect(res.status).toBe(200);
    const { admins } = adminListSchema.parse(res.body);
    expect(admins.map((a) => [a.display_name, a.email])).toEqual([
      ['Aaron Able', 'zed@example.com'],
      ['Ann Archer', 'ann@example.com'],
      ['Bob Baker', 'bob@example.com'],
    ]);
    expect(admins.find((a) => a.email === 'ann@example.com')?.id).toBe(annId);
    expect(Object.keys(res.body as object)).toEqual(['admins']);
    expect(Object.keys(admins[0]!)).toEqual(['id', 'email', 'display_name']);
  });
});
