import * as z from 'zod';
import { TASK_TYPE_LABELS, TASK_TYPES } from '#shared/constants';
import { oneLine, parse, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/**
 * The morning task list: to each person who asked for it (account → Morning task list), the
 * tasks due that day and how many are overdue, each with its lead, and a link to My tasks.
 */
export const taskDigestDataSchema = z.object({
  /** The day (YYYY-MM-DD, business time zone) and that zone, for the times. */
  date: z.string(),
  time_zone: z.string(),
  overdue: z.number().int(),
  today: z.number().int(),
  /** The first of today's tasks (at most TASK_DIGEST_LISTED), soonest first. */
  tasks: z.array(
    z.object({ due_at: z.string(), type: z.enum(TASK_TYPES), title: z.string().nullable(), lead_id: z.string(), lead_name: z.string() }),
  ),
});
export type TaskDigestData = z.infer<typeof taskDigestDataSchema>;

const dayOf = (date: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(
    new Date(`${date}T00:00:00Z`),
  );
const timeOf = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso)).replace(/\u202f/g, ' ');
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const digestSubject = (d: TaskDigestData) => oneLine(`Your tasks for ${dayOf(d.date)}: ${plural(d.today, 'task', 'tasks')} due`);

function taskDigest(data: unknown, ctx: MailContext): ComposedEmail {
  const d = parse(taskDigestDataSchema, data);
  const more = d.today - d.tasks.length;
  return {
    subject: digestSubject(d),
    ...render(ctx, `Good morning. Your tasks for ${dayOf(d.date)}:`, [
      {
        lines: [
          d.today === 0
            ? 'Nothing due today.'
            : `${plural(d.today, 'task', 'tasks')} due today${more > 0 ? `; the first ${d.tasks.length}:` : ':'}`,
        ],
      },
      {
        rows: d.tasks.map((t): [string, string] => [
          timeOf(t.due_at, d.time_zone),
          `${t.title ? `${TASK_TYPE_LABELS[t.type]}: ${t.title}` : TASK_TYPE_LABELS[t.type]} (${t.lead_name})`,
        ]),
      },
      ...(d.overdue > 0 ? [{ lines: [`Overdue: ${plural(d.overdue, 'task', 'tasks')} from before today.`] }] : []),
      { link: { label: 'Open My tasks', href: `${ctx.publicUrl}/dashboard/tasks` } },
    ]),
  };
}

export const taskDigestTemplate: Template = { compose: taskDigest, subject: (data) => digestSubject(parse(taskDigestDataSchema, data)) };
