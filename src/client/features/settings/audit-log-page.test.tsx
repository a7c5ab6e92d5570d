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
  actor_name: 'Olive Owner',
  action: 'lead_updated',
  target_type: 'lead',
  target_id: LEAD,
  target_exists: true,
  details: {
    name: 'Jane Doe',
    changes: { status: { from: 'New', to: 'Contacted' }, property_types: { from: ['land'], to: ['land', 'commercial'] } },
  },
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  api_key_name: null,
  ...over,
});

describe('AuditLogPage', () => {
  it('shows who did what with the fields changed, filters in the URL, and loads more', async () => {
    const { calls } = mockApi((call) => {
      if (call.path === '/api/team')
        return { body: { members: [{ id: OLIVE, email: 'olive@example.com', display_name: 'Olive Owner' }], invites: [] } };
      if (call.path.startsWith('/api/audit?') && call.path.includes('cursor=5'))
        return { body: { entries: [entry(4, { action: 'sign_in', target_type: 'account', details: {} })], next_cursor: null } };
      if (call.path.startsWith('/api/audit')) return { body: { entries: [entry(5)], next_cursor: '5' } };
      return undefined;
    });
    renderWithProviders(<AuditLogPage />, {
      url: '/dashboard/settings/audit?action=lead_updated',
      user: { id: OLIVE, email: 'olive@example.com', role: 'owner' },
    });
    const first = await screen.findByTestId('audit-entry');
    expect(first).toHaveTextContent('Olive Owner · Updated a lead · Jane Doe');
    expect(first).toHaveTextContent('status: New → Contacted');
    expect(first).toHaveTextContent('property types: Land → Land, Commercial');
    // The device in words, as on the account page; the raw user agent only on hover.
    expect(first).toHaveTextContent('203.0.113.7 · Chrome on Linux');
    expect(first).not.toHaveTextContent('Mozilla');
    expect(screen.getByRole('option', { name: 'Olive Owner' })).toHaveValue(OLIVE);
    expect(screen.getByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', `/dashboard/leads/${LEAD}`);
    expect(screen.getByLabelText('Action')).toHaveValue('lead_updated');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/audit/export?action=lead_updated');

    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(2));
    expect(screen.getAllByTestId('audit-entry')[1]).toHaveTextContent('Signed in');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.map((c) => c.path)).toContain('/api/audit?action=lead_updated&cursor=5');
  });

  it('says which lead, how many and whose: names, an erased person as [erased], an import’s count, owners by name', async () => {
    const SAM = '22222222-2222-4222-8222-222222222222';
    const GONE = '44444444-4444-4444-8444-444444444444';
    mockApi((call) => {
      if (call.path === '/api/team') {
        return {
          body: {
            members: [
              { id: OLIVE, email: 'olive@example.com', display_name: 'Olive Owner' },
              { id: SAM, email: 'sam@example.com', display_name: 'Sam Staff' },
            ],
            invites: [],
          },
        };
      }
      if (call.path.startsWith('/api/audit')) {
        return {
          body: {
            entries: [
              entry(9, { action: 'lead_erased', target_exists: false, details: { erased: true, name: '[erased]', leads_removed: 1 } }),
              // An entry from before the erasure, scrubbed by it.
              entry(8, {
                target_exists: false,
                details: { erased: true, name: '[erased]', changes: { status: { from: '[erased]', to: '[erased]' } } },
              }),
              entry(7, {
                action: 'leads_imported',
                target_id: null,
                details: { file: 'october.csv', duplicates: 'update', total: 45, created: 42, updated: 2, skipped: 1 },
              }),
              entry(6, { action: 'lead_updated', details: { name: 'Jane Doe', changes: { owner_id: { from: SAM, to: OLIVE } } } }),
              entry(5, { action: 'lead_updated', details: { name: 'Jane Doe', changes: { owner_id: { from: GONE, to: null } } } }),
              entry(4, {
                action: 'lead_deleted',
                target_id: null,
                target_exists: false,
                details: { bulk: true, count: 3, action: 'delete' },
              }),
              entry(3, {
                action: 'account_deactivated',
                target_type: 'account',
                target_id: SAM,
                details: { email: 'sam@example.com', name: 'Sam Staff' },
              }),
              entry(2, {
                action: 'backup',
                actor_id: null,
                actor_email: null,
                actor_name: null,
                target_type: 'backup',
                target_id: null,
                details: { bytes: 10 },
                ip: null,
                user_agent: 'npm run backup',
              }),
              entry(1, {
                action: 'sign_in_failed',
                actor_id: null,
                actor_email: 'someone@example.com',
                actor_name: null,
                target_type: 'account',
                target_id: null,
                details: {},
              }),
            ],
            next_cursor: null,
          },
        };
      }
      return undefined;
    });
    renderWithProviders(<AuditLogPage />, {
      url: '/dashboard/settings/audit',
      user: { id: OLIVE, email: 'olive@example.com', role: 'owner' },
    });
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(9));
    const rows = screen.getAllByTestId('audit-entry');
    expect(rows[0]).toHaveTextContent('Olive Owner · Erased a lead · [erased]');
    expect(rows[1]).toHaveTextContent('Olive Owner · Updated a lead · [erased]');
    expect(rows[1]).toHaveTextContent('status: [erased] → [erased]');
    expect(rows[2]).toHaveTextContent('Olive Owner · Imported 42 leads');
    expect(rows[2]).toHaveTextContent('2 leads updated · 1 lead already there skipped · from october.csv');
    expect(rows[3]).toHaveTextContent('owner: Sam Staff → Olive Owner');
    expect(rows[4]).toHaveTextContent('owner: a removed account → (nobody)');
    expect(rows[5]).toHaveTextContent('Olive Owner · Deleted 3 leads');
    expect(rows[6]).toHaveTextContent('Olive Owner · Deactivated an account · Sam Staff (sam@example.com)');
    // The system names its tool, and shows no device; a failed sign-in names the email typed.
    expect(rows[7]).toHaveTextContent(/^.*npm run backup · Made a backup$/);
    expect(rows[8]).toHaveTextContent('someone@example.com · Failed sign-in');
  });

  it('says when nothing matches', async () => {
    mockApi((call) => {
      if (call.path === '/api/team') return { body: { members: [], invites: [] } };
      if (call.path.startsWith('/api/audit')) return { body: { entries: [], next_cursor: null } };
      return undefined;
    });
    renderWithProviders(<AuditLogPage />, {
      url: '/dashboard/settings/audit?from=2020-01-01',
      user: { id: OLIVE, email: 'olive@example.com', role: 'owner' },
    });
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
  });
});
