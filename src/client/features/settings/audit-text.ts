import { AUDIT_ACTIONS } from '#shared/constants';
import { propertyTypesLabel } from '#shared/property-type-label';
import type { AuditEntryView } from '#shared/schemas/audit';
import { deviceName } from '#shared/device-name';

/**
 * What an audit log entry says, in words (docs/product-rules.md, "Audit log"): who (a name),
 * what (with how many, for imports and bulk changes), about what (a lead's name, "[erased]"
 * once the person is erased), the fields changed, and from where (IP and device).
 */

/** An erased person's name, as the server writes it in their entries. */
export const ERASED = '[erased]';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const numberIn = (details: Record<string, unknown>, key: string) =>
  typeof details[key] === 'number' ? (details[key] as number) : undefined;
const textIn = (details: Record<string, unknown>, key: string) => (typeof details[key] === 'string' ? (details[key] as string) : undefined);

/** Who did it: their name; the email used when there is no account to name (a failed sign-in, a removed account); else the tool or the system. */
export function auditWho(entry: AuditEntryView): string {
  return entry.actor_name ?? entry.actor_email ?? (entry.actor_id ? 'a removed account' : (entry.user_agent ?? 'the system'));
}

/** The act: its label, or how many for an import ("Imported 42 leads") and a change to many leads at once ("Updated 3 leads"). */
export function auditAction(entry: AuditEntryView): string {
  const { details } = entry;
  if (entry.action === 'leads_imported') {
    const created = numberIn(details, 'created');
    if (created !== undefined) return `Imported ${count(created, 'lead', 'leads')}`;
  }
  if (details.bulk === true && (entry.action === 'lead_updated' || entry.action === 'lead_deleted')) {
    const n = numberIn(details, 'count');
    if (n !== undefined) return `${entry.action === 'lead_updated' ? 'Updated' : 'Deleted'} ${count(n, 'lead', 'leads')}`;
  }
  return AUDIT_ACTIONS[entry.action];
}

/** What it was about, in words: a lead's name ("[erased]" once erased), a person's name and email, an invited address; undefined for nothing to say. */
export function auditTarget(entry: AuditEntryView): string | undefined {
  const { details } = entry;
  const name = textIn(details, 'name');
  if (entry.target_type === 'lead') {
    if (details.erased === true) return ERASED;
    return name;
  }
  const email = textIn(details, 'email');
  if (entry.target_type === 'account') return name && email ? `${name} (${email})` : (name ?? email);
  if (entry.target_type === 'invite') return entry.target_id ?? undefined;
  return name ?? email;
}

const FIELD_LABEL: Record<string, string> = { owner_id: 'owner', display_name: 'name', property_types: 'property types' };
const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? '(empty)' : Array.isArray(value) ? value.join(', ') : String(value);

/**
 * "field: old → new", for an entry that records changed fields; an owner by name (`nameOf`
 * knows the team: nobody is "(nobody)", an account no longer on the team "a removed account").
 */
export function auditChanges(entry: AuditEntryView, nameOf: (id: string) => string | undefined): string[] {
  const changes = entry.details.changes as Record<string, { from: unknown; to: unknown }> | undefined;
  if (!changes || typeof changes !== 'object') return [];
  const owner = (value: unknown) =>
    value === ERASED ? ERASED : typeof value === 'string' ? (nameOf(value) ?? 'a removed account') : '(nobody)';
  return Object.entries(changes).map(([field, { from, to }]) => {
    const label = FIELD_LABEL[field] ?? field.replace(/_/g, ' ');
    if (field === 'owner_id') return `${label}: ${owner(from)} → ${owner(to)}`;
    // Property types by their labels, as the lead page shows them.
    const value = (v: unknown) => (field === 'property_types' && Array.isArray(v) ? propertyTypesLabel(v.map(String)) : v);
    return `${label}: ${show(value(from))} → ${show(value(to))}`;
  });
}

/** More about the act: an import's other counts and file, a merge's duplicate. */
export function auditNotes(entry: AuditEntryView): string[] {
  const { details } = entry;
  const notes: string[] = [];
  if (entry.action === 'leads_imported') {
    const updated = numberIn(details, 'updated');
    const skipped = numberIn(details, 'skipped');
    if (updated) notes.push(`${count(updated, 'lead', 'leads')} updated`);
    if (skipped) notes.push(`${count(skipped, 'lead', 'leads')} already there skipped`);
    const file = textIn(details, 'file');
    if (file) notes.push(`from ${file}`);
  }
  if (entry.action === 'leads_merged' && details.erased !== true) {
    const merged = textIn(details, 'merged_name');
    if (merged) notes.push(`merged in: ${merged}`);
  }
  return notes;
}

/** Where from: the IP and, for a person, their device in words ("Chrome on Linux"); the raw user agent is the caller's to offer on hover. */
export function auditSource(entry: AuditEntryView): string {
  // The system's entries carry the tool's name where a browser's user agent would be (it names them, in auditWho).
  const device = entry.actor_email && entry.user_agent ? deviceName(entry.user_agent) : undefined;
  const key = entry.api_key_name ? `API key “${entry.api_key_name}”` : undefined;
  return [key, entry.ip, device].filter(Boolean).join(' · ');
}
