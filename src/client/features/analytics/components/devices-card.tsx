import type { AnalyticsSummary } from '#shared/schemas/analytics';

const DEVICE_LABELS = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' } as const;

function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '0%';
}

/**
 * The period's page views by kind of device. Referring sites are the Sources table's (by
 * visitor, first touch): a list of page views by referrer beside it would count them another way.
 */
export function DevicesCard({ devices }: { devices: AnalyticsSummary['devices'] }) {
  const deviceTotal = devices.desktop + devices.mobile + devices.tablet;
  return (
    <section aria-labelledby="devices-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="devices-heading" className="text-lg font-semibold text-slate-900">
        Devices
      </h2>
      <p className="text-xs text-slate-500">Page views by kind of device</p>
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
  );
}
