// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntryView } from '#shared/schemas/audit';
import { toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { AuditLogPage } from './audit-log-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const OLIVE = '11111111-1111-4111-8111-111111111111';
const LEAD = '33333333-3333-4333-8333-333333333333';
const entry = (id: number, over: Partial<AuditEntryView> = {}): AuditEntryView => ({
  id: String(id),
  at: '2026-11-24T10:00:00.000Z',
  actor_id: OLIVE,
  actor_email: 'olive@example.com',
  action: 'lead_updated',
  target_type: 'lead',
  target_id: LEAD,
  target_exists: true,
  details: { name: 'Jane Doe', changes: { status: { from: 'New', to: 'Contacted' }, property_types: { from: ['land'], to: ['land', 'commercial'] } } },
  ip: '203.0.113.7',
  user_agent: 'Chrome',
  ...over,
});

describe('AuditLogPage', () => {
  it('shows who did what with the fields changed, filters in the URL, and loads more', async () => {
    const { calls } = mockApi((call) => {
      if (call.path === '/api/team') return { body: { members: [{ id: OLIVE, email: 'olive@example.com' }], invites: [] } };
      if (call.path.startsWith('/api/audit?') && call.path.includes('cursor=5')) return { body: { entries: [entry(4, { action: 'sign_in', target_type: 'account', details: {} })], next_cursor: null } };
      if (call.path.startsWith('/api/audit')) return { body: { entries: [entry(5)], next_cursor: '5' } };
      return undefined;
    });
    renderWithProviders(<AuditLogPage />, { url: '/dashboard/settings/audit?action=lead_updated', user: { id: OLIVE, email: 'olive@example.com', role: 'owner' } });
    const first = await screen.findByTestId('audit-entry');
    expect(first).toHaveTextContent('olive@example.com · Updated a lead · Jane Doe');
    expect(first).toHaveTextContent('status: New → Contacted');
    expect(first).toHaveTextContent('property types: Land → Land, Commercial');
    expect(screen.getByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', `/dashboard/leads/${LEAD}`);
    expect(screen.getByLabelText('Action')).toHaveValue('lead_updated');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/audit/export?action=lead_updated');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(2));
    expect(screen.getAllByTestId('audit-entry')[1]).toHaveTextContent('Signed in');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.map((c) => c.path)).toContain('/api/audit?action=lead_updated&cursor=5');
  });

  it('says when nothing matches', async () => {
    mockApi((call) => {
      if (call.path === '/api/team') return { body: { members: [], invites: [] } };
      if (call.path.startsWith('/api/audit')) return { body: { entries: [], next_cursor: null } };
      return undefined;
    });
    renderWithProviders(<AuditLogPage />, { url: '/dashboard/settings/audit?from=2020-01-01', user: { id: OLIVE, email: 'olive@example.com', role: 'owner' } });
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
  });
});
