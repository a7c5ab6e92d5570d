import type { AnalyticsSummary } from '#shared/schemas/analytics';

const DEVICE_LABELS = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' } as const;

function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '0%';
}

/** Where visits came from (top referring sites) and on what (device split), by page views. */
export function VisitSources({ referrers, devices }: { referrers: AnalyticsSummary['top_referrers']; devices: AnalyticsSummary['devices'] }) {
  const deviceTotal = devices.desktop + devices.mobile + devices.tablet;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <section aria-labelledby="referrers-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="referrers-heading" className="text-lg font-semibold text-slate-900">
          Top Referrers
        </h2>
        {referrers.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">No referrers yet</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {referrers.map((r) => (
              <li key={r.source} data-testid="top-referrer" className="flex justify-between gap-3 py-2">
                <span className="font-medium break-all text-slate-900">{r.source}</span>
                <span className="text-slate-700 tabular-nums">{r.views.toLocaleString('en-US')}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="devices-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="devices-heading" className="text-lg font-semibold text-slate-900">
          Devices
        </h2>
        <ul className="mt-3 divide-y divide-slate-100 text-sm">
          {(Object.keys(DEVICE_LABELS) as (keyof typeof DEVICE_LABELS)[]).map((kind) => (
            <li key={kind} data-testid="device" className="flex justify-between gap-3 py-2">
              <span className="font-medium text-slate-900">{DEVICE_LABELS[kind]}</span>
              <span className="text-slate-700 tabular-nums">
                {devices[kind].toLocaleString('en-US')} ({percent(devices[kind], deviceTotal)})
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
