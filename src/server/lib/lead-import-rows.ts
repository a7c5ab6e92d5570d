import type * as z from 'zod';
import { LEAD_STATUSES, PROPERTY_TYPES, type LeadStatus, type PropertyType } from '#shared/constants';
import { PROPERTY_TYPE_CHOICES } from '#shared/property-type-label';
import { isCalendarDate } from '#shared/rules/calendar';
import { leadDealFieldsSchema, leadFieldsSchema } from '#shared/schemas/lead';
import { LEAD_IMPORT_FIELDS, type LeadImportField, type LeadImportRow, type LeadImportRowError } from '#shared/schemas/lead-import';
import { zonedInstant } from '#shared/zoned-time';

/**
 * One imported row checked against the lead rules (docs/product-rules.md, "Importing leads"):
 * the lead's values, or every field's first message. A blank optional cell is "not given":
 * a new lead gets the default, an updated lead keeps what it has.
 */
export type ImportedLead = {
  full_name: string;
  email: string;
  phone: string;
  property_type: PropertyType;
  status?: LeadStatus;
  message?: string;
  property_address?: string;
  target_closing_date?: string;
  estimated_fee_cents?: number;
  /** ISO 8601. */
  created_at?: string;
};

export type CheckedRow = { row: number; lead?: ImportedLead; errors: LeadImportRowError[] };

export const IMPORT_MESSAGES = {
  propertyType: `Unknown property type: use ${PROPERTY_TYPE_CHOICES}.`,
  status: 'Unknown status: use New, Contacted, Converted or Dropped.',
  date: 'Use a date like 2026-12-31 or 12/31/2026.',
  createdAt: 'Use a date like 2026-03-31 or 3/31/2026, or an ISO 8601 time.',
  createdInFuture: 'Created date cannot be in the future.',
  fee: 'Estimated fee must be an amount in dollars',
  sameEmail: (row: number) => `Same email as row ${row}.`,
} as const;

const typeKey = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
const TYPES_BY_KEY = new Map<string, PropertyType>(PROPERTY_TYPES.map((t) => [typeKey(t), t]));
const STATUSES_BY_KEY = new Map<string, LeadStatus>(LEAD_STATUSES.map((s) => [s.toLowerCase(), s]));

const blank = (v: string | number | null | undefined) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** 2026-12-31, 2026-1-5 or 12/31/2026 (the U.S. order) as yyyy-mm-dd, if it is a real date. */
export function importDate(text: string): string | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!y || !m || !d) return undefined;
  const date = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  return isCalendarDate(date) ? date : undefined;
}

/**
 * A created date: a date (midnight in the business time zone), an ISO 8601 time with an
 * offset (what the export writes), or one without (the business time zone's clock).
 */
export function importInstant(text: string, timeZone: string): number | undefined {
  const t = text.trim();
  const day = importDate(t);
  if (day) return zonedInstant(day, 0, timeZone);
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!m || !isCalendarDate(m[1]!)) return undefined;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  if (m[6]) {
    const at = Date.parse(
      `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[5] ?? ''}${m[6].length === 5 ? `${m[6].slice(0, 3)}:${m[6].slice(3)}` : m[6]}`,
    );
    return Number.isNaN(at) ? undefined : at;
  }
  const start = zonedInstant(m[1]!, h * 60 + mi, timeZone);
  return start === undefined ? undefined : start + s * 1000 + Math.round(Number(m[5] ?? 0) * 1000);
}

/** Dollars ("$12,500.00", "12500", 12500.5) as whole cents, or a message. */
export function importFeeCents(value: string | number): number | string {
  let cents: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return IMPORT_MESSAGES.fee;
    cents = Math.round(value * 100);
    if (Math.abs(value * 100 - cents) > 1e-6) return IMPORT_MESSAGES.fee;
  } else {
    const t = value.replace(/\s/g, '');
    const m = /^(-?)\$?(-?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{1,2}))?$/.exec(t);
    if (!m || (m[3] === undefined && m[4] === undefined) || (m[1] && m[2])) return IMPORT_MESSAGES.fee;
    const whole = Number((m[3] ?? '0').replace(/,/g, ''));
    if (!Number.isSafeInteger(whole * 100)) return 'Estimated fee must be at most $1,000,000,000';
    cents = whole * 100 + Number((m[4] ?? '0').padEnd(2, '0'));
    if (m[1] || m[2]) cents = -cents;
  }
  const checked = leadDealFieldsSchema.shape.estimated_fee_cents.safeParse(cents);
  return checked.success ? cents : (checked.error.issues[0]?.message ?? IMPORT_MESSAGES.fee);
}

/** Checks one row; `row` is its number in the file. */
export function checkImportRow(input: LeadImportRow, row: number, { timeZone, now }: { timeZone: string; now: number }): CheckedRow {
  const errors: LeadImportRowError[] = [];
  const fail = (field: LeadImportField, message: string) => void errors.push({ row, field, message });
  const text = <T>(field: LeadImportField, schema: z.ZodType<T>, value: unknown): T | undefined => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    fail(field, result.error.issues[0]?.message ?? 'Invalid value');
    return undefined;
  };
  const full_name = text('full_name', leadFieldsSchema.shape.full_name, input.full_name ?? undefined);
  const email = text('email', leadFieldsSchema.shape.email, input.email ?? undefined);
  const phone = text('phone', leadFieldsSchema.shape.phone, input.phone ?? undefined);

  let property_type: PropertyType | undefined;
  if (blank(input.property_type)) fail('property_type', 'Property type is required');
  else {
    property_type = TYPES_BY_KEY.get(typeKey(input.property_type!));
    if (!property_type) fail('property_type', IMPORT_MESSAGES.propertyType);
  }
  const lead: Partial<ImportedLead> = {};
  if (!blank(input.status)) {
    lead.status = STATUSES_BY_KEY.get(input.status!.trim().toLowerCase());
    if (!lead.status) fail('status', IMPORT_MESSAGES.status);
  }
  if (!blank(input.message)) lead.message = text('message', leadFieldsSchema.shape.message, input.message) ?? undefined;
  if (!blank(input.property_address))
    lead.property_address = text('property_address', leadDealFieldsSchema.shape.property_address, input.property_address) ?? undefined;
  if (!blank(input.target_closing_date)) {
    lead.target_closing_date = importDate(input.target_closing_date!);
    if (!lead.target_closing_date) fail('target_closing_date', IMPORT_MESSAGES.date);
  }
  if (!blank(input.estimated_fee)) {
    const fee = importFeeCents(input.estimated_fee!);
    if (typeof fee === 'number') lead.estimated_fee_cents = fee;
    else fail('estimated_fee', fee);
  }
  if (!blank(input.created_at)) {
    const at = importInstant(input.created_at!, timeZone);
    if (at === undefined) fail('created_at', IMPORT_MESSAGES.createdAt);
    else if (at > now) fail('created_at', IMPORT_MESSAGES.createdInFuture);
    else lead.created_at = new Date(at).toISOString();
  }
  // The errors in the mapping's field order.
  errors.sort((a, b) => LEAD_IMPORT_FIELDS.indexOf(a.field) - LEAD_IMPORT_FIELDS.indexOf(b.field));
  if (errors.length > 0 || !full_name || !email || !phone || !property_type) return { row, errors };
  return { row, errors, lead: { full_name, email, phone, property_type, ...lead } };
}
