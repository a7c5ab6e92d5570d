// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookAttempt, WebhookEndpoint } from '#shared/schemas/webhook';
import { toast } from '#client/components/ui/toast-store.ts';
import { FIXTURE_OWNER } from '#client/test/fixtures.ts';
import { renderWithProviders } from '#client/test/render-with-providers.tsx';
import { WebhooksSection } from './webhooks-section.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const OWNER = FIXTURE_OWNER;
const ENDPOINT: WebhookEndpoint = {
  id: '22222222-2222-4222-8222-222222222222',
  url: 'https://hooks.example.com/crm',
  events: ['lead.created'],
  paused: false,
  paused_at: null,
  paused_reason: null,
  failing_since: null,
  previous_secret_until: null,
  created_at: '2026-11-20T10:00:00.000Z',
  created_by_name: 'Olive Owner',
};
const FAILED: WebhookAttempt = {
  id: 1,
  delivery_id: '33333333-3333-4333-8333-333333333333',
  event_id: '44444444-4444-4444-8444-444444444444',
  event_type: 'lead.created',
  delivery_status: 'pending',
  at: '2026-11-20T10:05:00.000Z',
  http_status: 500,
  duration_ms: 12,
  response_body: 'database is down',
  error: 'HTTP 500',
};

/**
 * The webhooks API: `endpoints` listed (a DELETE removes one), the delivery log one failed
 * attempt, and POST /api/webhooks answered once `saved` settles (a save still in flight until then).
 */
function serve(endpoints: WebhookEndpoint[] = [ENDPOINT], saved: Promise<void> = Promise.resolve()) {
  let list = [...endpoints];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${String(input)}`;
      if (call === 'GET /api/webhooks') return Response.json({ endpoints: list });
      if (call === `GET /api/webhooks/${ENDPOINT.id}/deliveries`) return Response.json({ attempts: [FAILED] });
      if (call === `DELETE /api/webhooks/${ENDPOINT.id}`) {
        list = list.filter((e) => e.id !== ENDPOINT.id);
        return Response.json({ id: ENDPOINT.id });
      }
      if (call === 'POST /api/webhooks') {
        await saved;
        list = [ENDPOINT];
        return Response.json({ ...ENDPOINT, secret: `whsec_${'A'.repeat(43)}=` }, { status: 201 });
      }
      return Response.json({ error: { code: 'internal_error', message: `Unhandled ${call}` } }, { status: 500 });
    }),
  );
}

describe('WebhooksSection', () => {
  it('the delivery log shows a failed attempt’s error and what the receiver answered', async () => {
    serve();
    renderWithProviders(<WebhooksSection />, { user: OWNER });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Delivery log' }));
    const log = await screen.findByRole('list', { name: 'Delivery log' });
    expect(within(log).getByText(/HTTP 500/)).toHaveTextContent('HTTP 500 database is down');
  });

  it('Add webhook keeps the keyboard focus while it saves', async () => {
    let release = () => {};
    serve([], new Promise<void>((resolve) => (release = resolve)));
    renderWithProviders(<WebhooksSection />, { user: OWNER });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.com/crm');
    const add = screen.getByRole('button', { name: 'Add webhook' });
    add.focus();
    await user.keyboard('{Enter}');
    // Saving: a disabled button would drop the focus to the page's body.
    expect(add).toBeEnabled();
    expect(add).toHaveFocus();
    release();
    expect(await screen.findByText('Its signing secret')).toBeInTheDocument();
    expect(add).toHaveFocus();
  });

  it('Delete: cancelled, focus goes back to Delete; deleted, to the section’s heading', async () => {
    serve();
    renderWithProviders(<WebhooksSection />, { user: OWNER });
    const user = userEvent.setup({ delay: null });
    const remove = await screen.findByRole('button', { name: 'Delete' });
    await user.click(remove);
    expect(await screen.findByRole('alertdialog', { name: 'Delete this webhook?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(remove).toHaveFocus());

    await user.click(remove);
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this webhook?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText(ENDPOINT.url)).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Webhooks' })).toHaveFocus());
  });
});
