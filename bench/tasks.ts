/**
 * `tasks`: My tasks at 50,000 tasks. 10,000 leads, each with five tasks spread over six people
 * (the signed-in owner among them) and over the last and next 60 days, a third of them done;
 * then GET /api/tasks for each list, the owner's own and everyone's, and one lead's tasks,
 * timed through HTTP against the built server (sequential requests on loopback).
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { ensureAdmin } from '../src/server/auth/accounts.ts';
import type { Db } from '../src/server/db/client.ts';
import { execute, queryRows } from '../src/server/db/sql.ts';
import { timeQueries, type QueryTiming } from './leads-at-scale.ts';

export const TASK_LEADS = 10_000;
export const TASKS_PER_LEAD = 5;
export const TASKS = TASK_LEADS * TASKS_PER_LEAD;

/** The leads, five bench staff and the owner (who signs in), and the tasks; a lead's id to read. */
export async function seedTasks(db: Db, admin: { email: string; password: string }): Promise<{ leadId: string }> {
  await ensureAdmin(db, admin.email, admin.password, 'owner', 'Bench Owner');
  await execute(
    db,
    sql`insert into users (email, display_name, password_hash)
      select 'bench-staff-' || i || '@example.com', 'Bench Staff ' || i, 'not-a-hash' from generate_series(1, 5) i
      on conflict (email) do nothing`,
  );
  await execute(
    db,
    sql`insert into leads (full_name, email, phone, property_types, created_at)
      select 'Task Lead ' || i, 'task-lead-' || i || '@example.com', '(301) 555-' || lpad((i % 10000)::text, 4, '0'), array['land'],
        now() - make_interval(mins => i)
      from generate_series(1, ${TASK_LEADS}) i`,
  );
  await execute(
    db,
    sql`with people as (select array_agg(id order by email) as ids from users),
      numbered as (select id, row_number() over (order by id) as n from leads)
      insert into lead_tasks (lead_id, type, title, due_at, assignee_id, done_at, notified_at)
      select l.id, (array['call', 'email', 'meeting', 'todo'])[1 + (l.n + k) % 4], 'Task ' || k || ' of lead ' || l.n,
        now() + make_interval(mins => ((l.n * 7 + k * 13) % 172800)::int - 86400),
        p.ids[1 + ((l.n + k) % cardinality(p.ids))],
        case when (l.n + k) % 3 = 0 then now() - make_interval(mins => ((l.n + k) % 10000)::int) end, now()
      from numbered l, people p, generate_series(1, ${TASKS_PER_LEAD}) k`,
  );
  await execute(db, sql`analyze`);
  const [lead] = await queryRows(db, sql`select lead_id as id from lead_tasks limit 1`, z.object({ id: z.uuid() }));
  return { leadId: lead!.id };
}

const listAnswer = z.object({ tasks: z.array(z.unknown()), counts: z.record(z.string(), z.number()) });

/** Checks the lists hold every task once, then times them. */
export async function timeTasks(origin: string, cookie: string, leadId: string, samples = 300): Promise<QueryTiming[]> {
  let total = 0;
  const res = await fetch(`${origin}/api/tasks?assignee=anyone`, { headers: { cookie } });
  const counts = listAnswer.parse(await res.json()).counts;
  for (const n of Object.values(counts)) total += n;
  if (total !== TASKS) throw new Error(`My tasks counts ${total} tasks for anyone, not ${TASKS}: ${JSON.stringify(counts)}`);
  const queries = ['overdue', 'today', 'upcoming', 'done'].flatMap((bucket) => [
    { name: `GET /api/tasks?bucket=${bucket} (mine)`, path: `/api/tasks?bucket=${bucket}` },
    { name: `GET /api/tasks?bucket=${bucket}&assignee=anyone`, path: `/api/tasks?bucket=${bucket}&assignee=anyone` },
  ]);
  queries.push({ name: "GET /api/leads/{id}/tasks (a lead's five)", path: `/api/leads/${leadId}/tasks` });
  return timeQueries(origin, cookie, samples, 20, queries);
}
