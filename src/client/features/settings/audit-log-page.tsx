import { AUDIT_ACTIONS, type AuditAction } from '#shared/constants';
import { Link, useSearchParams } from 'react-router';
import type { AuditEntryView } from '#shared/schemas/audit';
import { Download } from '#client/components/icons.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { useAuditLog } from './api/get-audit-log.ts';
import { useTeam } from './api/manage-team.ts';
import { auditAction, auditChanges, auditNotes, auditSource, auditTarget, auditWho } from './audit-text.ts';
import { SettingsNav } from './settings-nav.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';

const FILTERS = ['actor', 'action', 'from', 'to'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters in the URL, as the API reads them (an unusable value is left out). */
function filtersOf(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of FILTERS) {
    const value = params.get(key);
    if (!value) continue;
    if ((key === 'from' || key === 'to') && !DAY.test(value)) continue;
    if (key === 'action' && !(value in AUDIT_ACTIONS)) continue;
    out.set(key, value);
  }
  return out;
}

/** /dashboard/settings/audit (owners): who did what, when and from where; filters in the URL, more on demand, CSV. */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const query = filters.toString();
  const people = useTeam();
  const log = useAuditLog(filters);
  const set = (key: (typeof FILTERS)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const members = people.data?.members ?? [];
  const nameOf = (id: string) => members.find((m) => m.id === id)?.display_name;

  return (
    <section className="space-y-6">
      <SettingsNav />
      <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 className="text-lg font-semibold text-slate-900">Audit log</h2>
            <p className="mt-1 text-sm text-slate-600">
              Who did what, when and from where. Entries cannot be changed or deleted, and are kept for two years.
            </p>
          </div>
          <a href={`/api/audit/export${query ? `?${query}` : ''}`} download className={buttonClass({ variant: 'secondary', size: 'sm' })}>
            <Download className="size-4" aria-hidden="true" /> Export CSV
          </a>
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label="Filters">
          <SelectField label="Person" value={filters.get('actor') ?? ''} onChange={(e) => set('actor', e.currentTarget.value)}>
            <option value="">Anyone</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {members.some((o) => o.id !== m.id && o.display_name === m.display_name)
                  ? `${m.display_name} (${m.email})`
                  : m.display_name}
              </option>
            ))}
            <option value="system">The system (command line, jobs)</option>
          </SelectField>
          <SelectField label="Action" value={filters.get('action') ?? ''} onChange={(e) => set('action', e.currentTarget.value)}>
            <option value="">Any action</option>
            {(Object.entries(AUDIT_ACTIONS) as [AuditAction, string][]).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </SelectField>
          <TextField label="From" type="date" value={filters.get('from') ?? ''} onChange={(e) => set('from', e.currentTarget.value)} />
          <TextField label="To" type="date" value={filters.get('to') ?? ''} onChange={(e) => set('to', e.currentTarget.value)} />
        </div>
      </div>

      {log.isPending ? (
        <Spinner className="py-16" label="Loading the audit log..." />
      ) : log.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
          The audit log could not be loaded.
        </p>
      ) : entries.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
          No entries match these filters.
        </p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <ul className="divide-y divide-slate-200" aria-label="Audit log entries">
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} nameOf={nameOf} />
            ))}
          </ul>
          {log.hasNextPage ? (
            <div className="border-t border-slate-200 p-4 text-center">
              <Button disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()} variant="secondary">
                {log.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}

function AuditRow({ entry, nameOf }: { entry: AuditEntryView; nameOf: (id: string) => string | undefined }) {
  const changes = auditChanges(entry, nameOf);
  const notes = auditNotes(entry);
  const about = auditTarget(entry);
  const source = auditSource(entry);
  const target =
    entry.target_type === 'lead' && entry.target_id && entry.target_exists ? (
      <Link to={`/dashboard/leads/${entry.target_id}`} className="font-medium text-blue-700 hover:underline">
        {about ?? 'the lead'}
      </Link>
    ) : about ? (
      <span className="break-words">{about}</span>
    ) : null;
  return (
    <li className="flex flex-col gap-1 px-5 py-3 text-sm sm:flex-row sm:gap-4" data-testid="audit-entry">
      <RelativeTime iso={entry.at} className="shrink-0 text-slate-500 sm:w-32" />
      <div className="min-w-0 flex-1">
        <p className="text-slate-900">
          <span className="font-medium break-words">{auditWho(entry)}</span> · {auditAction(entry)}
          {target ? <> · {target}</> : null}
        </p>
        {notes.length > 0 ? <p className="mt-1 break-words text-slate-600">{notes.join(' · ')}</p> : null}
        {changes.length > 0 ? (
          <ul className="mt-1 space-y-0.5 text-slate-600">
            {changes.map((c) => (
              <li key={c} className="break-words">
                {c}
              </li>
            ))}
          </ul>
        ) : null}
        {source ? (
          <p className="mt-1 truncate text-xs text-slate-500" title={entry.actor_email ? (entry.user_agent ?? undefined) : undefined}>
            {source}
          </p>
        ) : null}
      </div>
    </li>
  );
}
