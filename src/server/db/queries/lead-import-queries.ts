import { sql } from 'drizzle-orm';
import * as z from 'zod';
import {
  LEAD_IMPORT_MAX_ERRORS,
  type LeadImportDuplicates,
  type LeadImportResult,
  type LeadImportRowError,
} from '#shared/schemas/lead-import';
import { IMPORT_MESSAGES, type CheckedRow, type ImportedLead } from '../../lib/lead-import-rows.ts';
import type { Db } from '../client.ts';
import { execute, pgArray, queryRows, transaction } from '../sql.ts';
import { MESSAGE_LOCKED } from './leads-queries.ts';

/**
 * Stores checked CSV rows as leads, all or nothing (docs/product-rules.md, "Importing leads"):
 * new leads in one INSERT … SELECT FROM unnest(…) with their first status and an `imported`
 * timeline entry, duplicates (a lead with the row's email) skipped or updated in one UPDATE.
 * No notification and no email: an import is not a stream of new inquiries.
 */

type Existing = { id: string; email: string; message: string | null; from_form: boolean };
const existingRow = z.object({ id: z.uuid(), email: z.string(), message: z.string().nullable(), from_form: z.boolean() });

/** The oldest lead of each email (emails are stored lower-case, as the rows have them). */
async function existingLeads(db: Db, emails: string[]): Promise<Map<string, Existing>> {
  if (emails.length === 0) return new Map();
  const rows = await queryRows(
    db,
    sql`select distinct on (l.email) l.id, l.email, l.message, l.submission_id is not null as from_form
        from leads l where l.email = any(${pgArray(emails)}::text[]) order by l.email, l.created_at, l.id`,
    existingRow,
  );
  return new Map(rows.map((r) => [r.email, r]));
}

type Plan = {
  create: ImportedLead[];
  update: (ImportedLead & { id: string })[];
  skipped: number;
  errors: LeadImportRowError[];
  errorRows: number;
  duplicateRows: number[];
};

/** What each row will do, and the errors that need the database or the other rows: an email twice in the file, a form lead's message. */
function planImport(rows: CheckedRow[], existing: Map<string, Existing>, duplicates: LeadImportDuplicates): Plan {
  const plan: Plan = { create: [], update: [], skipped: 0, errors: [], errorRows: 0, duplicateRows: [] };
  const firstRowOf = new Map<string, number>();
  for (const { row, lead, errors } of rows) {
    const rowErrors = [...errors];
    const seen = lead && firstRowOf.get(lead.email);
    if (lead && seen !== undefined) rowErrors.push({ row, field: 'email', message: IMPORT_MESSAGES.sameEmail(seen) });
    else if (lead) firstRowOf.set(lead.email, row);
    const known = lead && existing.get(lead.email);
    if (known) plan.duplicateRows.push(row);
    if (known && lead && duplicates === 'update' && known.from_form && lead.message !== undefined && lead.message !== known.message) {
      rowErrors.push({ row, field: 'message', message: MESSAGE_LOCKED });
    }
    if (rowErrors.length > 0 || !lead) {
      plan.errorRows++;
      for (const e of rowErrors) if (plan.errors.length < LEAD_IMPORT_MAX_ERRORS) plan.errors.push(e);
      continue;
    }
    if (!known) plan.create.push(lead);
    else if (duplicates === 'update') plan.update.push({ ...lead, id: known.id });
    else plan.skipped++;
  }
  return plan;
}

const countRow = z.object({ n: z.number().int() });
const column = <K extends keyof ImportedLead>(leads: ImportedLead[], key: K) =>
  pgArray(leads.map((l) => (l[key] as string | number | undefined) ?? null));

async function insertLeads(db: Db, leads: ImportedLead[], adminId: string, file: string | null): Promise<number> {
  if (leads.length === 0) return 0;
  const [row] = await queryRows(
    db,
    sql`
    with rows as (
      select * from unnest(${column(leads, 'full_name')}::text[], ${column(leads, 'email')}::text[], ${column(leads, 'phone')}::text[],
        ${column(leads, 'property_type')}::text[], ${column(leads, 'message')}::text[], ${column(leads, 'status')}::text[],
        ${column(leads, 'property_address')}::text[], ${column(leads, 'target_closing_date')}::date[],
        ${column(leads, 'estimated_fee_cents')}::bigint[], ${column(leads, 'created_at')}::timestamptz[])
        with ordinality as r(full_name, email, phone, property_type, message, status, property_address, target_closing_date,
          estimated_fee_cents, created_at, n)
    ), inserted as (
      insert into leads (full_name, email, phone, property_types, message, status, property_address, target_closing_date,
                         estimated_fee_cents, created_at)
      select full_name, email, phone, array[property_type], message, coalesce(status, 'New'), property_address, target_closing_date,
             estimated_fee_cents, coalesce(created_at, crm_now())
      from rows order by n
      returning id, status
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, null, status, ${adminId}::uuid from inserted
    ), timeline as (
      insert into lead_events (lead_id, kind, actor_id, data)
      select id, 'imported', ${adminId}::uuid, jsonb_build_object('file', ${file}::text) from inserted
    )
    select count(*)::int as n from inserted`,
    countRow,
  );
  return row?.n ?? 0;
}

/** Changes only the fields a row gives (a blank cell keeps the lead's value); a new status is recorded. */
async function updateLeads(db: Db, leads: (ImportedLead & { id: string })[], adminId: string): Promise<number> {
  if (leads.length === 0) return 0;
  const [row] = await queryRows(
    db,
    sql`
    with rows as (
      select * from unnest(${pgArray(leads.map((l) => l.id))}::uuid[], ${column(leads, 'full_name')}::text[], ${column(leads, 'phone')}::text[],
        ${column(leads, 'property_type')}::text[], ${column(leads, 'message')}::text[], ${column(leads, 'status')}::text[],
        ${column(leads, 'property_address')}::text[], ${column(leads, 'target_closing_date')}::date[],
        ${column(leads, 'estimated_fee_cents')}::bigint[])
        as r(id, full_name, phone, property_type, message, status, property_address, target_closing_date, estimated_fee_cents)
    ), prev as (
      select l.id, l.status from leads l join rows r on r.id = l.id order by l.id for update of l
    ), updated as (
      update leads l set full_name = r.full_name, phone = r.phone, property_types = array[r.property_type],
        message = coalesce(r.message, l.message), status = coalesce(r.status, l.status),
        property_address = coalesce(r.property_address, l.property_address),
        target_closing_date = coalesce(r.target_closing_date, l.target_closing_date),
        estimated_fee_cents = coalesce(r.estimated_fee_cents, l.estimated_fee_cents), updated_at = crm_now()
      from rows r join prev p on p.id = r.id
      where l.id = r.id
      returning l.id, l.status, p.status as old_status
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, old_status, status, ${adminId}::uuid from updated where status <> old_status
    )
    select count(*)::int as n from updated`,
    countRow,
  );
  return row?.n ?? 0;
}

/** Two imports run one after the other, so the second sees the first's leads as duplicates. */
const lockImports = (db: Db) => execute(db, sql`select pg_advisory_xact_lock(hashtext('lead-import'))`);

/**
 * A dry run checks the rows against the leads there are and stores nothing; an import does the
 * same inside one transaction and stores every row, or none when any row has an error
 * (`stored: false`, the report says why).
 */
export async function importLeads(
  db: Db,
  rows: CheckedRow[],
  { duplicates, dryRun, adminId, file }: { duplicates: LeadImportDuplicates; dryRun: boolean; adminId: string; file: string | null },
): Promise<{ stored: boolean; result: LeadImportResult }> {
  const run = async (t: Db) => {
    if (!dryRun) await lockImports(t);
    const emails = [...new Set(rows.flatMap((r) => (r.lead ? [r.lead.email] : [])))];
    const plan = planImport(rows, await existingLeads(t, emails), duplicates);
    const result: LeadImportResult = {
      dry_run: true,
      total: rows.length,
      created: plan.create.length,
      updated: plan.update.length,
      skipped: plan.skipped,
      error_rows: plan.errorRows,
      errors: plan.errors,
      duplicate_rows: plan.duplicateRows,
    };
    if (dryRun || plan.errorRows > 0) return { stored: false, result };
    const created = await insertLeads(t, plan.create, adminId, file);
    const updated = await updateLeads(t, plan.update, adminId);
    return { stored: true, result: { ...result, dry_run: false, created, updated } };
  };
  return dryRun ? run(db) : transaction(db, run);
}
