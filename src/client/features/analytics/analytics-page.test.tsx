// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import type { AnalyticsPipeline } from '#shared/schemas/analytics-pipeline';
import type { AnalyticsReport, AnalyticsSources } from '#shared/schemas/analytics-report';
import { getToasts, toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { AnalyticsPage } from './analytics-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  pipelineAnswer = PIPELINE;
});

const hourly = Array.from({ length: 24 }, (_, hour) => ({ hour, views: hour === 14 ? 12 : hour % 3, time_spent: hour === 14 ? 200 : 0 }));

const summary = (over: Partial<AnalyticsSummary> = {}): AnalyticsSummary => ({
  period: '7d',
  time_zone: 'America/New_York',
  page_views: 1234,
  previous_page_views: 1097,
  change_percent: 12.5,
  unique_visitors: 321,
  avg_time_seconds: 125,
  hourly,
  top_pages: [
    { path: '/', views: 900, avg_time_seconds: 65 },
    { path: '/pricing', views: 200, avg_time_seconds: 5 },
  ],
  devices: { desktop: 900, mobile: 300, tablet: 34 },
  form_conversions: 8,
  conversion_rate: 2.5,
  ...over,
});

const REPORT: AnalyticsReport = {
  from: '2026-11-19',
  to: '2026-11-25',
  start: '2026-11-19T00:00:00-05:00',
  end: '2026-11-26T00:00:00-05:00',
  hours: null,
  previous_from: '2026-11-12',
  previous_to: '2026-11-18',
  time_zone: 'America/New_York',
  funnel: {
    visitors: 400,
    saw_form: 200,
    started_form: 50,
    sent: 20,
    booked: 10,
    converted: 4,
    no_shows: 0,
    clients_without_call: 2,
    clients_without_visit: 1,
  },
  days: Array.from({ length: 7 }, (_, i) => ({ day: `2026-11-${19 + i}`, visitors: 50 + i, page_views: 150 + i, leads: i % 2 })),
  totals: { visitors: 371, page_views: 1071, leads: 3 },
  previous_totals: { visitors: 350, page_views: 0, leads: 0 },
};

const SOURCES: AnalyticsSources = {
  from: '2026-11-19',
  to: '2026-11-25',
  group: 'referrer',
  rows: [
    {
      origin: 'referrer',
      value: 'google.com',
      visitors: 300,
      leads: 10,
      bookings: 5,
      converted: 1,
      conversion_rate: 0.3,
      fees_cents: 250_000,
    },
    { origin: 'referrer', value: 'Direct', visitors: 100, leads: 8, bookings: 4, converted: 3, conversion_rate: 3, fees_cents: 900_000 },
    { origin: 'offline', value: '', visitors: 0, leads: 2, bookings: 1, converted: 1, conversion_rate: null, fees_cents: 120_050 },
  ],
};

const PIPELINE: AnalyticsPipeline = {
  from: '2026-11-19',
  to: '2026-11-25',
  hours: null,
  lost: {
    deals: 4,
    fees_cents: 701_000,
    reasons: [
      { reason: 'Price', deals: 2, share_percent: 50, fees_cents: 200_000 },
      { reason: 'Chose another firm', deals: 1, share_percent: 25, fees_cents: 500_000 },
      { reason: 'Not given', deals: 1, share_percent: 25, fees_cents: 1_000 },
    ],
  },
  conversion: {
    leads: 10,
    steps: [
      { stage_id: '00000000-0000-4000-8000-000000000001', name: 'New', status: 'New', reached: 9, to_next_percent: 55.6 },
      { stage_id: '00000000-0000-4000-8000-000000000002', name: 'Call booked', status: 'Contacted', reached: 5, to_next_percent: 80 },
      { stage_id: null, name: 'Won', status: 'Converted', reached: 4, to_next_percent: null },
    ],
  },
};
let pipelineAnswer: AnalyticsPipeline = PIPELINE;

const NOW = {
  minutes: 5,
  visitors: 3,
  pages: [
    { path: '/privacy', visitors: 2 },
    { path: '/', visitors: 1 },
  ],
};

/** Answers the summary with `answer`, and "Now" with NOW. */
function serve(answer: (period: string) => { status?: number; body: unknown }) {
  return mockApi(({ path }) => {
    if (path === '/api/analytics/now') return { body: NOW };
    if (path.startsWith('/api/analytics/report?')) return { body: REPORT };
    if (path.startsWith('/api/analytics/pipeline?')) return { body: pipelineAnswer };
    if (path.startsWith('/api/analytics/sources?'))
      return { body: { ...SOURCES, group: new URLSearchParams(path.split('?')[1]).get('group') } };
    const match = /^\/api\/analytics\/summary\?period=(\w+)$/.exec(path);
    return match ? answer(match[1]!) : undefined;
  });
}
const summaryPaths = (calls: { path: string }[]) => calls.map((c) => c.path).filter((p) => p.startsWith('/api/analytics/summary'));

describe('AnalyticsPage', () => {
  it('shows the three cards with a green rising change and minutes and seconds', async () => {
    const { calls } = serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    expect(screen.getByRole('heading', { level: 1, name: 'Analytics' })).toBeInTheDocument();
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Loading analytics...');

    expect(await screen.findByTestId('page-views')).toHaveTextContent('1,234');
    const change = screen.getByTestId('page-views-change');
    expect(change).toHaveTextContent('+12.5% vs previous period');
    expect(change).toHaveClass('text-green-700');
    expect(change.querySelector('[data-direction]')).toHaveAttribute('data-direction', 'up');
    expect(screen.getByRole('heading', { name: 'Unique Visitors' }).parentElement).toHaveTextContent('321');
    expect(screen.getByTestId('avg-time')).toHaveTextContent('2m 05s');
    expect(summaryPaths(calls)).toEqual(['/api/analytics/summary?period=7d']);
  });

  it('shows a fall in red with a down arrow, and 100% when the previous period had none', async () => {
    serve((period) => ({
      body: period === '30d' ? summary({ period: '30d', change_percent: -40 }) : summary({ previous_page_views: 0, change_percent: 100 }),
    }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=30d' });
    const fall = await screen.findByTestId('page-views-change');
    expect(fall).toHaveTextContent('-40% vs previous period');
    expect(fall).toHaveClass('text-red-700');
    expect(fall).toHaveAttribute('title', 'Page views in the last 30 days compared with the 30 days before');
    expect(fall.querySelector('[data-direction]')).toHaveAttribute('data-direction', 'down');

    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '14d' } });
    expect(await screen.findByText('+100% vs previous period')).toBeInTheDocument();
    expect(screen.getByTestId('page-views-change')).toHaveClass('text-green-700');
  });

  it('shows "—" in grey when neither period had a view, and says in its tooltip what it compares', async () => {
    serve(() => ({ body: summary({ period: '7d', page_views: 0, previous_page_views: 0, change_percent: null }) }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=7d' });
    const none = await screen.findByTestId('page-views-change');
    expect(none).toHaveTextContent('— vs previous period');
    expect(none).not.toHaveTextContent('%');
    expect(none).toHaveClass('text-slate-500');
    expect(none).toHaveAttribute(
      'title',
      'Page views in the last 7 days compared with the 7 days before: no page views in either, so no change to show',
    );
  });

  it('says how many visitors are on the site now and on which pages, never as a bare number beside a path', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const card = (await screen.findByRole('heading', { level: 2, name: 'Now' })).closest('section')!;
    expect(await within(card).findByTestId('visitors-now')).toHaveTextContent('3');
    expect(within(card).getByRole('status', { name: '3 visitors now, active in the last 5 minutes' })).toHaveTextContent(
      '3 visitors now (active in the last 5 minutes)',
    );
    const chips = within(within(card).getByRole('list', { name: 'Pages they are on' }))
      .getAllByTestId('page-now')
      .map((li) => li.textContent);
    expect(chips).toEqual(['2 visitors on /privacy', '1 visitor on /']);
    // Nothing that reads as a fraction: "/ 1", "3 / 12", "3/12".
    for (const text of [card.textContent!, ...chips]) expect(text).not.toMatch(/\d\s*\/\s*\d|(^|\s)\/\s+\d/);
  });

  it('shows a flat change in red', async () => {
    serve(() => ({ body: summary({ change_percent: 0 }) }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const flat = await screen.findByTestId('page-views-change');
    expect(flat).toHaveTextContent('0% vs previous period');
    expect(flat).toHaveClass('text-red-700');
  });

  it('keeps the period in the URL and titles the chart by it', async () => {
    const { calls } = serve((period) => ({ body: summary({ period: period as AnalyticsSummary['period'] }) }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=24h' });
    const select = screen.getByLabelText('Period');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Last 24 hours', 'Last 7 days', 'Last 14 days', 'Last 30 days', 'Last 90 days', 'Custom range']);
    expect(select).toHaveValue('24h');
    expect(await screen.findByRole('heading', { name: 'Hourly Activity' })).toBeInTheDocument();

    fireEvent.change(select, { target: { value: '14d' } });
    expect(screen.getByTestId('current-url')).toHaveTextContent('/dashboard/analytics?period=14d');
    expect(await screen.findByRole('heading', { name: 'Activity Trend' })).toBeInTheDocument();
    expect(summaryPaths(calls)).toEqual(['/api/analytics/summary?period=24h', '/api/analytics/summary?period=14d']);
  });

  it('falls back to 7 days for an unknown period', async () => {
    const { calls } = serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=1y' });
    expect(screen.getByLabelText('Period')).toHaveValue('7d');
    expect(await screen.findByRole('heading', { name: 'Activity Trend' })).toBeInTheDocument();
    expect(summaryPaths(calls)[0]).toBe('/api/analytics/summary?period=7d');
  });

  it('draws 24 hourly bars, describes them and lists their values for screen readers', async () => {
    serve(() => ({ body: summary({ period: '24h', hourly: [...hourly].reverse() }) }));
    const { container } = renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=24h' });
    const chart = await screen.findByRole('img', { name: /24 bars; busiest hour 2pm with 12 views/ });
    expect(chart).toBeInTheDocument();
    // One bar per hour; only the 16 hours with views draw a filled rectangle.
    expect(screen.getAllByTestId('activity-bar')).toHaveLength(24);
    await waitFor(() => expect(container.querySelectorAll('[data-testid="activity-bar"] path')).toHaveLength(16));

    const rows = within(screen.getByTestId('activity-table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(24);
    expect(rows[0]).toHaveTextContent('12am0');
    expect(rows[1]).toHaveTextContent('1am1');
    expect(rows[14]).toHaveTextContent('2pm123m 20s');
    expect(rows[23]).toHaveTextContent('11pm2');
  });

  it('lists the top pages with views and average time', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const [home, pricing] = await screen.findAllByTestId('top-page');
    expect(home).toHaveTextContent('/9001m 05s');
    expect(pricing).toHaveTextContent('/pricing2000m 05s');
  });

  it('shows the empty state when there are no page views', async () => {
    serve(() => ({
      body: summary({
        period: '24h',
        page_views: 0,
        unique_visitors: 0,
        avg_time_seconds: 0,
        top_pages: [],
        hourly: hourly.map((h) => ({ ...h, views: 0, time_spent: 0 })),
      }),
    }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=24h' });
    expect(await screen.findByText('No page views yet')).toBeInTheDocument();
    expect(screen.getByTestId('avg-time')).toHaveTextContent('0m 00s');
    expect(screen.getByRole('img', { name: /no page views in this period/ })).toBeInTheDocument();
  });

  it('only logs a failed load and shows a neutral message instead of the cards', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    serve(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'boom', requestId: 'r1' } } }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    expect(await screen.findByText('Analytics are not available right now.')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('Loading analytics failed', expect.anything());
    expect(screen.queryByTestId('page-views')).not.toBeInTheDocument();
    expect(getToasts()).toEqual([]);
  });

  it('shows the form conversion rate', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    await waitFor(() => expect(screen.getByTestId('conversion-rate')).toHaveTextContent('2.5%'));
    expect(screen.getByText('8 of 321 visitors sent the form')).toBeInTheDocument();
  });

  it('shows the device split, and leaves referring sites to the Sources table', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    await waitFor(() => expect(screen.getAllByTestId('device')).toHaveLength(3));
    expect(screen.getAllByTestId('device').map((li) => li.textContent)).toEqual(['Desktop900 (73%)', 'Mobile300 (24%)', 'Tablet34 (3%)']);
    expect(screen.queryByRole('heading', { name: 'Top Referrers' })).not.toBeInTheDocument();
  });

  it('says how it counts: the period on the business clock, and what a visitor, a page view and a lead are', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const note = await screen.findByRole('region', { name: 'How we count' });
    expect(within(note).getByTestId('period-bounds')).toHaveTextContent('Nov 19, 2026, 12:00 AM – Nov 25, 2026, 11:59 PM, Eastern Time');
    expect(note).toHaveTextContent('VisitorA browser on the site, counted once: in the period of its first recorded page view.');
    expect(note).toHaveTextContent('Page viewEach page shown, counted when it was shown.');
    expect(note).toHaveTextContent('LeadCounted in the period of the visit that brought it (its first page view).');
  });

  it('draws the daily trend with each total and its change from the days before ("—" when both are zero)', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const totals = await screen.findByTestId('trend-totals');
    expect(totals).toHaveTextContent('Visitors371 +6%');
    expect(totals).toHaveTextContent('Page views1,071 +100%');
    expect(totals).toHaveTextContent('Leads3 +100%');
    expect(screen.getByText('Nov 19 – Nov 25 compared with Nov 12 – Nov 18')).toBeInTheDocument();
    const rows = within(screen.getByTestId('trend-table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toHaveTextContent('Nov 19, 202650150');
  });

  it('shows the funnel with each step and its share of the step before', async () => {
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const steps = await screen.findAllByTestId('funnel-step');
    expect(steps.map((s) => s.textContent)).toEqual([
      'Visitors400',
      'Saw the form20050% of the step before',
      'Started the form5025% of the step before',
      'Sent the form2040% of the step before',
      'Booked a call1050% of the step before',
      'Became clients440% of the step before',
    ]);
    expect(
      screen.getByText(
        'Visitors whose first visit was from Nov 19, 2026 to Nov 25, 2026, and what they did since. Each step counts only visitors of the step before.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('funnel-outside')).toHaveTextContent(
      '2 clients won without a call this period are not in the funnel. 1 client won this period with no recorded visit (typed in, imported or not tracked) is not in the funnel. The Sources table counts every client.',
    );
  });

  it('shows the lost reasons and the stage conversion of the period as tables, and says when there are none', async () => {
    const { calls } = serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    const lost = await screen.findByRole('table', {
      name: 'Deals lost in the period by reason, with their share and the estimated fees lost',
    });
    expect(
      within(lost)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Reason', 'Deals', 'Share', 'Fees lost']);
    expect(
      within(lost)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['ReasonDealsShareFees lost', 'Price250%$2,000', 'Chose another firm125%$5,000', 'Not given125%$10', 'Total4100%$7,010']);
    expect(within(lost).getByRole('rowheader', { name: 'Price' })).toBeInTheDocument();
    expect(screen.getByText('Deals lost from Nov 19, 2026 to Nov 25, 2026 and still lost, by the reason given.')).toBeInTheDocument();

    const conversion = screen.getByRole('table', {
      name: "The period's leads by the furthest stage they reached, and the share that went on to the next stage",
    });
    expect(
      within(conversion)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['StageReachedTo the next stage', 'New955.6%', 'Call booked580%', 'Won4—']);
    expect(
      screen.getByText(/^The 10 leads that came in from Nov 19, 2026 to Nov 25, 2026, and how far each has got since\./),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain('/api/analytics/pipeline?period=7d');

    cleanup();
    pipelineAnswer = {
      ...PIPELINE,
      lost: { deals: 0, fees_cents: 0, reasons: [] },
      conversion: { leads: 0, steps: PIPELINE.conversion.steps },
    };
    serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=30d' });
    expect(await screen.findByText('No deals lost in this period')).toBeInTheDocument();
    expect(screen.getByText('No leads in this period')).toBeInTheDocument();
    expect(screen.queryByTestId('lost-reasons-table')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stage-conversion-table')).not.toBeInTheDocument();
  });

  it("lists the sources, sorts by any column, opens each row's leads, and switches grouping in the URL", async () => {
    const { calls } = serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics?period=30d' });
    const names = () =>
      within(screen.getByTestId('sources-table'))
        .getAllByRole('rowheader')
        .map((c) => c.textContent);
    await waitFor(() => expect(names()).toEqual(['google.com', 'Direct', 'Offline / entered by staff']));
    expect(calls.map((c) => c.path)).toContain('/api/analytics/sources?period=30d&group=referrer');
    const offline = screen.getAllByTestId('source-row')[2]!;
    expect(offline).toHaveTextContent('Offline / entered by staff0211—$1,200.50');
    expect(within(offline).getByRole('link')).toHaveAttribute(
      'href',
      '/dashboard/leads?origin=offline&visit_from=2026-11-19&visit_to=2026-11-25',
    );
    expect(screen.getByRole('link', { name: 'Direct' })).toHaveAttribute(
      'href',
      '/dashboard/leads?origin=referrer&visit_from=2026-11-19&visit_to=2026-11-25&origin_value=Direct',
    );

    fireEvent.click(screen.getByRole('button', { name: /Fees won/ }));
    expect(names()).toEqual(['Direct', 'google.com', 'Offline / entered by staff']);
    expect(screen.getByRole('columnheader', { name: /Fees won/ })).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(screen.getByRole('button', { name: /Fees won/ }));
    expect(names()).toEqual(['Offline / entered by staff', 'google.com', 'Direct']);
    fireEvent.click(within(screen.getByTestId('sources-table')).getByRole('button', { name: /Referring site/ }));
    expect(names()).toEqual(['Direct', 'google.com', 'Offline / entered by staff']);

    const groupBy = screen.getByRole('group', { name: 'Group by' });
    fireEvent.click(within(groupBy).getByRole('button', { name: 'Campaign (UTM)' }));
    expect(screen.getByTestId('current-url')).toHaveTextContent('/dashboard/analytics?period=30d&group=utm');
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/analytics/sources?period=30d&group=utm'));
    expect(within(groupBy).getByRole('button', { name: 'Campaign (UTM)' })).toHaveAttribute('aria-pressed', 'true');
  });

  it("applies a custom range only when valid, with the API's messages, and keeps it in the URL", async () => {
    const { calls } = serve(() => ({ body: summary() }));
    renderWithProviders(<AnalyticsPage />, { url: '/dashboard/analytics' });
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: 'custom' } });
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(from).toHaveAccessibleDescription('Date is required');
    expect(from).toHaveFocus();
    fireEvent.change(from, { target: { value: '2026-03-10' } });
    fireEvent.change(to, { target: { value: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(to).toHaveAccessibleDescription('The start date must be on or before the end date');
    fireEvent.change(from, { target: { value: '2024-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(from).toHaveAccessibleDescription('Choose a range of at most 2 years');
    expect(screen.getByTestId('current-url')).toHaveTextContent('/dashboard/analytics');
    fireEvent.change(from, { target: { value: '2026-02-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByTestId('current-url')).toHaveTextContent('/dashboard/analytics?period=custom&from=2026-02-01&to=2026-03-01');
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/analytics/report?from=2026-02-01&to=2026-03-01'));
    // A custom range has no summary cards (they are the presets'); the funnel sits by the trend.
    expect(screen.queryByTestId('page-views')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Funnel' })).toBeInTheDocument();
  });
});
