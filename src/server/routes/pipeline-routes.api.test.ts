import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import type { PipelineSettings } from '#shared/schemas/pipeline';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * The pipeline: stages the firm names within the four statuses (a lead's status is always its
 * stage's), lost reasons, and the lead's stage changed through PATCH /api/leads/{id}.
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let owner: string;
let staff: string;

const DEFAULT_STAGES = [
  { name: 'New', status: 'New', position: 1, probability: 10 },
  { name: 'Call booked', status: 'Contacted', position: 1, probability: 25 },
  { name: 'Proposal sent', status: 'Contacted', position: 2, probability: 50 },
  { name: 'Engaged', status: 'Contacted', position: 3, probability: 75 },
  { name: 'Won', status: 'Converted', position: 1, probability: null },
  { name: 'Lost', status: 'Dropped', position: 1, probability: null },
];

const call = (method: string, path: string, body?: unknown, cookie = owner) => t.json(method, path, body, { cookie });
const settings = async () => (await (await call('GET', '/api/pipeline/stages')).json()) as PipelineSettings;
const stage = async (name: string) => (await settings()).stages.find((s) => s.name === name)!;
const lead = async (id: string) => (await (await call('GET', `/api/leads/${id}`)).json()) as Lead;
const patch = (id: string, body: unknown) => call('PATCH', `/api/leads/${id}`, body);
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; fields?: Record<string, string> } }).error;
const stageEntries = async (id: string) =>
  ((await (await call('GET', `/api/leads/${id}/timeline`)).json()) as { entries: TimelineEntry[] }).entries.flatMap((e) =>
    e.kind === 'stage' ? [{ from: e.from, to: e.to, lost_reason: e.lost_reason, actor: e.actor }] : [],
  );

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails, audit_log cascade`);
  await execute(
    database.db,
    sql`delete from pipeline_stages where name not in ('New', 'Call booked', 'Proposal sent', 'Engaged', 'Won', 'Lost')`,
  );
  await execute(
    database.db,
    sql`update pipeline_stages s set position = d.position, probability = d.probability, name = s.name
        from (values ('New', 1, 10), ('Call booked', 1, 25), ('Proposal sent', 2, 50), ('Engaged', 3, 75), ('Won', 1, null), ('Lost', 1, null))
          as d(name, position, probability) where d.name = s.name`,
  );
  await execute(database.db, sql`delete from lost_reasons`);
  await execute(
    database.db,
    sql`insert into lost_reasons (name, position) values ('Price', 1), ('Chose another firm', 2), ('Deal fell through', 3), ('No response', 4), ('Not a fit', 5)`,
  );
  t = createTestApp(database);
  await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner');
  await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
  owner = await signIn(t.json, 'olive@keystone.test', 'olive-password');
  staff = await signIn(t.json, 'sam@keystone.test', 'sam-password');
});

async function newLead(): Promise<string> {
  const res = await call('POST', '/api/leads', validLead());
  expect(res.status).toBe(201);
  return ((await res.json()) as Lead).id;
}

describe('the pipeline’s stages', () => {
  it('starts with six stages in the four statuses and five lost reasons; everyone reads them, owners change them', async () => {
    const read = (await (await call('GET', '/api/pipeline/stages', undefined, staff)).json()) as PipelineSettings;
    expect(read.stages.map(({ name, status, position, probability }) => ({ name, status, position, probability }))).toEqual(DEFAULT_STAGES);
    expect(read.lost_reasons.map((r) => r.name)).toEqual(['Price', 'Chose another firm', 'Deal fell through', 'No response', 'Not a fit']);
    expect((await call('POST', '/api/pipeline/stages', { name: 'Site visit', status: 'Contacted' }, staff)).status).toBe(403);
    expect((await call('POST', '/api/pipeline/lost-reasons', { name: 'Timing' }, staff)).status).toBe(403);
  });

  it('adds, renames, reorders and removes stages, each status keeping one; names unique whatever their case', async () => {
    const added = await call('POST', '/api/pipeline/stages', { name: '  Site visit ', status: 'Contacted' });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ name: 'Site visit', status: 'Contacted', position: 4, probability: 50, leads: 0 });
    const taken = await call('POST', '/api/pipeline/stages', { name: 'site VISIT', status: 'New' });
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).fields).toEqual({ name: 'Choose another name' });
    // A closed stage has no probability; a probability is 0–100.
    expect(
      (await errorOf(await call('POST', '/api/pipeline/stages', { name: 'Repeat', status: 'Converted', probability: 90 }))).fields,
    ).toEqual({
      probability: 'Only open stages have a win probability',
    });
    expect((await call('POST', '/api/pipeline/stages', { name: 'Hot', status: 'Contacted', probability: 101 })).status).toBe(400);
    expect((await call('POST', '/api/pipeline/stages', { name: '', status: 'Contacted' })).status).toBe(400);

    // Site visit to the top of Contacted; its probability and name changed.
    const visit = (await stage('Site visit')).id;
    const moved = await call('PATCH', `/api/pipeline/stages/${visit}`, { position: 1, name: 'Site walk', probability: 30 });
    expect(moved.status).toBe(200);
    expect((await settings()).stages.filter((s) => s.status === 'Contacted').map((s) => [s.name, s.position, s.probability])).toEqual([
      ['Site walk', 1, 30],
      ['Call booked', 2, 25],
      ['Proposal sent', 3, 50],
      ['Engaged', 4, 75],
    ]);

    // Removing a stage moves its leads to another of the same status, each with a timeline entry.
    const id = await newLead();
    expect((await patch(id, { stage_id: visit })).status).toBe(200);
    expect((await stage('Site walk')).leads).toBe(1);
    const won = (await stage('Won')).id;
    const engaged = (await stage('Engaged')).id;
    expect((await errorOf(await call('DELETE', `/api/pipeline/stages/${visit}?move_to=${won}`))).fields).toEqual({
      move_to: 'Choose another stage of the same status',
    });
    expect((await call('DELETE', `/api/pipeline/stages/${visit}?move_to=${visit}`)).status).toBe(400);
    const removed = await call('DELETE', `/api/pipeline/stages/${visit}?move_to=${engaged}`);
    expect(await removed.json()).toEqual({ id: visit, moved: 1 });
    expect(await lead(id)).toMatchObject({ stage_id: engaged, stage_name: 'Engaged', status: 'Contacted' });
    expect((await stageEntries(id))[0]).toEqual({ from: 'Site walk', to: 'Engaged', lost_reason: null, actor: 'Olive Owner' });
    expect((await settings()).stages.filter((s) => s.status === 'Contacted').map((s) => s.position)).toEqual([1, 2, 3]);

    // The last stage of a status stays.
    const last = await call('DELETE', `/api/pipeline/stages/${won}?move_to=${engaged}`);
    expect(last.status).toBe(409);
    expect((await errorOf(last)).message).toBe('Each status keeps at least one stage: add another before removing this one.');
    const audit = await rowsOf<{ details: Record<string, unknown> }>(
      database.db,
      sql`select details from audit_log where target_id = 'pipeline' order by id`,
    );
    expect(audit.map((a) => a.details.stage)).toEqual(['created', 'changed', 'removed']);
  });

  it('keeps the lost reasons: added, renamed, removed, unique whatever their case', async () => {
    const added = await call('POST', '/api/pipeline/lost-reasons', { name: 'Timing' });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: string };
    expect((await call('POST', '/api/pipeline/lost-reasons', { name: 'PRICE' })).status).toBe(409);
    expect((await call('PATCH', `/api/pipeline/lost-reasons/${id}`, { name: 'Bad timing' })).status).toBe(200);
    expect((await settings()).lost_reasons.at(-1)).toEqual({ id, name: 'Bad timing' });
    expect((await call('DELETE', `/api/pipeline/lost-reasons/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/pipeline/lost-reasons/${id}`)).status).toBe(404);
  });
});

describe('a lead’s stage', () => {
  it('follows the status set alone (the field, bulk changes, SQL), and sets the status when set itself', async () => {
    const id = await newLead();
    expect(await lead(id)).toMatchObject({ status: 'New', stage_name: 'New', lost_reason: null });
    expect((await patch(id, { status: 'Contacted' })).status).toBe(200);
    expect(await lead(id)).toMatchObject({ status: 'Contacted', stage_name: 'Call booked' });
    // Between stages of one status: a timeline entry, no status change.
    expect((await patch(id, { stage_id: (await stage('Proposal sent')).id })).status).toBe(200);
    expect(await lead(id)).toMatchObject({ status: 'Contacted', stage_name: 'Proposal sent' });
    expect(await stageEntries(id)).toEqual([{ from: 'Call booked', to: 'Proposal sent', lost_reason: null, actor: 'Olive Owner' }]);
    // To another status's stage: the status follows, in its history.
    expect((await patch(id, { stage_id: (await stage('Won')).id })).status).toBe(200);
    const won = (await (await call('GET', `/api/leads/${id}`)).json()) as Lead & { status_history: { to_status: string }[] };
    expect(won).toMatchObject({ status: 'Converted', stage_name: 'Won' });
    expect(won.status_history.map((c) => c.to_status)).toEqual(['New', 'Contacted', 'Converted']);
    // Bulk status changes (and anything else that sets the status alone) move to that status's first stage.
    expect((await call('POST', '/api/leads/bulk', { ids: [id], action: 'status', status: 'Dropped' })).status).toBe(200);
    expect(await lead(id)).toMatchObject({ status: 'Dropped', stage_name: 'Lost', lost_reason: 'Not given' });
    await execute(database.db, sql`update leads set status = 'Contacted' where id = ${id}`);
    expect(await lead(id)).toMatchObject({ status: 'Contacted', stage_name: 'Call booked', lost_reason: null });
  });

  it('keeps the other lead’s stage and reason when a merge keeps its status; refuses a stage that contradicts `contacted`', async () => {
    const id = await newLead();
    const { email } = await lead(id);
    const [other] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types, stage_id, lost_reason)
          select 'Jane Again', ${email}, '555', array['land'], id, 'Price' from pipeline_stages where name = 'Lost' returning id`,
    );
    expect(await lead(other!.id)).toMatchObject({ status: 'Dropped', stage_name: 'Lost', lost_reason: 'Price' });
    const merged = await call('POST', `/api/leads/${id}/merge`, { other_id: other!.id, keep: { status: 'other' } });
    expect(merged.status).toBe(200);
    expect(await lead(id)).toMatchObject({ status: 'Dropped', stage_name: 'Lost', lost_reason: 'Price' });
    const refused = await patch(id, { stage_id: (await stage('Engaged')).id, contacted: false });
    expect((await errorOf(refused)).fields).toEqual({ contacted: 'The stage “Engaged” belongs to Contacted' });
  });

  it('asks why a deal was lost: one of the firm’s reasons, with a Lost stage only', async () => {
    const id = await newLead();
    const lost = (await stage('Lost')).id;
    const noReason = await patch(id, { stage_id: lost });
    expect(noReason.status).toBe(400);
    expect((await errorOf(noReason)).fields).toEqual({ lost_reason: 'Choose why the deal was lost' });
    const unknown = await patch(id, { stage_id: lost, lost_reason: 'The moon' });
    expect((await errorOf(unknown)).fields).toEqual({ lost_reason: 'Choose one of the lost reasons in Settings → Pipeline' });
    const notLost = await patch(id, { stage_id: (await stage('Engaged')).id, lost_reason: 'Price' });
    expect((await errorOf(notLost)).fields).toEqual({ lost_reason: 'A lost reason goes with a Lost stage' });
    const contradiction = await patch(id, { stage_id: lost, status: 'Converted', lost_reason: 'Price' });
    expect(contradiction.status).toBe(400);
    expect((await errorOf(contradiction)).fields).toEqual({ status: 'The stage “Lost” belongs to Dropped, not Converted' });
    expect((await patch(id, { stage_id: crypto.randomUUID() })).status).toBe(400);
    expect(await lead(id)).toMatchObject({ status: 'New', stage_name: 'New' });

    // The reason as the list spells it, on the lead and its timeline; changing it later is a new entry.
    expect((await patch(id, { stage_id: lost, lost_reason: 'price' })).status).toBe(200);
    expect(await lead(id)).toMatchObject({ status: 'Dropped', stage_name: 'Lost', lost_reason: 'Price' });
    expect((await patch(id, { lost_reason: 'No response' })).status).toBe(200);
    expect((await stageEntries(id)).map((e) => e.lost_reason)).toEqual(['No response', 'Price']);
    // Back in an open stage: no reason left.
    expect((await patch(id, { stage_id: (await stage('Engaged')).id })).status).toBe(200);
    expect(await lead(id)).toMatchObject({ status: 'Contacted', lost_reason: null });
  });
});
