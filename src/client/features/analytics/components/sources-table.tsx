import { ANALYTICS_SOURCE_GROUPS, type AnalyticsSourceGroup } from '#shared/constants';
import { useState } from 'react';
import { Link } from 'react-router';
import { csvRow } from '#shared/csv-write';
import type { AnalyticsSourceRow, AnalyticsSources } from '#shared/schemas/analytics-report';
import { Download } from '#client/components/icons.tsx';
import { formatCents } from '#client/lib/money.ts';
import { sourceLabel } from '#shared/source-label';
import { Button } from '#client/components/ui/button.tsx';

const GROUP_LABELS: Record<AnalyticsSourceGroup, string> = { referrer: 'Referring site', utm: 'Campaign (UTM)', landing: 'Landing page' };

type SortKey = 'label' | 'visitors' | 'leads' | 'bookings' | 'converted' | 'conversion_rate' | 'fees_cents';
const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'visitors', label: 'Visitors' },
  { key: 'leads', label: 'Leads' },
  { key: 'bookings', label: 'Bookings' },
  { key: 'converted', label: 'Clients' },
  { key: 'conversion_rate', label: 'Visitor → client' },
  { key: 'fees_cents', label: 'Fees won' },
];

const rate = (r: AnalyticsSourceRow) => (r.conversion_rate === null ? '—' : `${r.conversion_rate.toLocaleString('en-US')}%`);

function sorted(rows: AnalyticsSourceRow[], key: SortKey, dir: 'asc' | 'desc') {
  const value = (r: AnalyticsSourceRow) => (key === 'label' ? sourceLabel(r.origin, r.value).toLowerCase() : (r[key] ?? -1));
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return x < y ? -sign : x > y ? sign : 0;
  });
}

/** The rows as a spreadsheet: what the table shows, fees in dollars, the period in the file. */
export function sourcesCsv(data: AnalyticsSources): string {
  const header = csvRow([
    GROUP_LABELS[data.group],
    'Visitors',
    'Leads',
    'Bookings',
    'Clients',
    'Visitor to client (%)',
    'Fees won (USD)',
    'From',
    'To',
  ]);
  return (
    header +
    data.rows
      .map((r) =>
        csvRow([
          sourceLabel(r.origin, r.value),
          r.visitors,
          r.leads,
          r.bookings,
          r.converted,
          r.conversion_rate ?? '',
          (r.fees_cents / 100).toFixed(2),
          data.from,
          data.to,
        ]),
      )
      .join('')
  );
}

function downloadCsv(data: AnalyticsSources) {
  const url = URL.createObjectURL(new Blob([sourcesCsv(data)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `sources-${data.group}-${data.from}-to-${data.to}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The leads list showing exactly the leads a row counts. */
const leadsHref = (r: AnalyticsSourceRow, data: AnalyticsSources) => {
  const params = new URLSearchParams({ origin: r.origin, visit_from: data.from, visit_to: data.to });
  if (r.value) params.set('origin_value', r.value);
  return `/dashboard/leads?${params.toString()}`;
};

/**
 * Where visitors came from, what they became and what they are worth: by referring site, by
 * campaign (UTM) or by landing page, with the leads entered by staff on a row of their own.
 * Sortable by any column; each row opens its leads; exportable as CSV.
 */
export function SourcesTable({
  data,
  group,
  onGroup,
  loading,
}: {
  data: AnalyticsSources | undefined;
  group: AnalyticsSourceGroup;
  onGroup: (g: AnalyticsSourceGroup) => void;
  loading: boolean;
}) {
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'visitors', dir: 'desc' });
  const rows = data ? sorted(data.rows, sort.key, sort.dir) : [];
  const sortBy = (key: SortKey) =>
    setSort((s) => ({ key, dir: s.key === key ? (s.dir === 'asc' ? 'desc' : 'asc') : key === 'label' ? 'asc' : 'desc' }));
  const header = (key: SortKey, label: string, className: string) => (
    <th
      key={key}
      scope="col"
      aria-sort={sort.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={className}
    >
      <button type="button" onClick={() => sortBy(key)} className="font-medium uppercase hover:text-slate-900">
        {label}
        <span aria-hidden="true">{sort.key === key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );

  return (
    <section aria-labelledby="sources-heading" className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sources-heading" className="text-lg font-semibold text-slate-900">
          Sources
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <div role="group" aria-label="Group by" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
            {ANALYTICS_SOURCE_GROUPS.map((g) => (
              <button
                key={g}
                type="button"
                aria-pressed={g === group}
                onClick={() => onGroup(g)}
                className={`rounded px-3 py-1.5 text-sm font-medium ${g === group ? 'bg-blue-700 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
              >
                {GROUP_LABELS[g]}
              </button>
            ))}
          </div>
          <Button disabled={!data || data.rows.length === 0} onClick={() => data && downloadCsv(data)} variant="secondary" size="sm">
            <Download aria-hidden="true" className="size-4" />
            Export CSV
          </Button>
        </div>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        First-touch attribution: a visitor, and every lead they send, counts for the site, campaign and page of their first visit. Offline
        leads count on the day they were added.
      </p>
      {!data ? (
        <p className="py-6 text-center text-sm text-slate-500">{loading ? 'Loading sources...' : 'Sources are not available right now.'}</p>
      ) : rows.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No visitors or leads in this period</p>
      ) : (
        <div className="mt-3 overflow-x-auto" aria-busy={loading || undefined}>
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="sources-table">
            <caption className="sr-only">Visitors, leads, bookings, clients and fees by {GROUP_LABELS[group].toLowerCase()}</caption>
            <thead className="text-xs text-slate-500">
              <tr>
                {header('label', GROUP_LABELS[group], 'py-2 pr-2')}
                {COLUMNS.map((c) => header(c.key, c.label, 'py-2 pr-2 text-right'))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={`${r.origin} ${r.value}`} data-testid="source-row">
                  <th scope="row" className="max-w-[16rem] py-2 pr-2 font-medium break-all text-slate-900">
                    <Link
                      to={leadsHref(r, data)}
                      className="text-blue-700 underline-offset-2 hover:underline"
                      title={`Open the leads of ${sourceLabel(r.origin, r.value)}`}
                    >
                      {sourceLabel(r.origin, r.value)}
                    </Link>
                  </th>
                  <td className="py-2 pr-2 text-right tabular-nums">{r.visitors.toLocaleString('en-US')}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{r.leads.toLocaleString('en-US')}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{r.bookings.toLocaleString('en-US')}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{r.converted.toLocaleString('en-US')}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{rate(r)}</td>
                  <td className="py-2 text-right tabular-nums">{formatCents(r.fees_cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
