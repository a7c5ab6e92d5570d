// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Team, TeamMember } from '#shared/schemas/team';
import { getToasts, toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { TeamPage } from './team-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const OLIVE = '11111111-1111-4111-8111-111111111111';
const SAM = '22222222-2222-4222-8222-222222222222';
const member = (over: Partial<TeamMember>): TeamMember => ({
  id: OLIVE,
  email: 'olive@example.com',
  display_name: 'Olive Owner',
  phone: null,
  role: 'owner',
  created_at: '2026-11-01T10:00:00.000Z',
  last_sign_in_at: null,
  two_factor: false,
  deactivated_at: null,
  owned_leads: 0,
  failing_calendars: 0,
  ...over,
});
const TEAM: Team = {
  members: [
    member({}),
    member({
      id: SAM,
      email: 'sam@example.com',
      display_name: 'Sam Staff',
      phone: '(301) 555-0142',
      role: 'staff',
      owned_leads: 3,
      failing_calendars: 0,
      two_factor: true,
    }),
  ],
  invites: [
    {
      id: 'abcdef0123456789',
      email: 'kim@example.com',
      role: 'staff',
      created_at: '2026-11-20T10:00:00.000Z',
      expires_at: '2099-11-23T10:00:00.000Z',
      invited_by: 'Olive Owner',
    },
  ],
};

function serve(team: Team = TEAM) {
  return mockApi((call) => {
    if (call.method === 'GET' && call.path === '/api/team') return { body: team };
    if (call.method === 'POST' && call.path === '/api/team/invites') {
      const body = call.body as { email: string; role: 'staff' | 'owner' };
      if (body.email === 'olive@example.com')
        return { status: 409, body: { error: { code: 'conflict', message: 'Someone on the team already uses that email.' } } };
      return {
        status: 201,
        body: {
          invite: { ...TEAM.invites[0]!, email: body.email, role: body.role },
          link: 'http://localhost/invite/TOKEN',
          emailed: false,
        },
      };
    }
    if (call.method === 'POST' && call.path === `/api/team/members/${SAM}/deactivate`)
      return { body: { ...team.members[1]!, deactivated_at: '2026-11-24T10:00:00.000Z' } };
    if (call.method === 'PATCH' && call.path === `/api/team/members/${OLIVE}`) {
      return {
        status: 409,
        body: { error: { code: 'conflict', message: 'The team needs at least one active owner: make someone else an owner first.' } },
      };
    }
    if (call.method === 'POST' && call.path === `/api/team/members/${SAM}/reassign`) return { body: { moved: 3 } };
    return undefined;
  });
}

const render = () =>
  renderWithProviders(<TeamPage />, { url: '/dashboard/settings/team', user: { id: OLIVE, email: 'olive@example.com', role: 'owner' } });

describe('TeamPage', () => {
  it('lists the people (name, email and phone, role, two-factor, leads, "You") and the pending invitations', async () => {
    serve();
    render();
    const rows = await screen.findAllByTestId('team-member');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Olive OwnerYouolive@example.com');
    expect(rows[1]).toHaveTextContent('Sam Staffsam@example.com · (301) 555-0142');
    expect(rows[0]).toHaveTextContent('Last sign-in: never · Two-factor: off · 0 leads');
    // Nobody deactivates or removes themselves; the others can be.
    expect(within(rows[0]!).queryByRole('button', { name: /Deactivate/ })).toBeNull();
    expect(rows[1]).toHaveTextContent('Two-factor: on · 3 leads');
    expect(within(rows[1]!).getByRole('combobox', { name: 'Role of sam@example.com' })).toHaveValue('staff');
    expect(screen.getByTestId('team-invite')).toHaveTextContent('kim@example.comStaff · invited by Olive Owner');
  });

  it('invites: checks the email, shows the link to copy when email is off, and says why a refusal happened', async () => {
    const { calls } = serve();
    render();
    await screen.findAllByTestId('team-member');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(screen.getByLabelText('Email')).toHaveFocus();

    await user.type(screen.getByLabelText('Email'), 'New@Example.com');
    await user.selectOptions(screen.getByLabelText('Role'), 'owner');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByLabelText('Invitation link')).toHaveValue('http://localhost/invite/TOKEN');
    expect(screen.getByText(/Email is off, so send this link to new@example.com yourself/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'new@example.com', role: 'owner' });

    await user.type(screen.getByLabelText('Email'), 'olive@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('Someone on the team already uses that email.'));
  });

  it('deactivates after a confirmation, and reassigns leads to the person chosen', async () => {
    const { calls } = serve();
    render();
    await screen.findAllByTestId('team-member');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Deactivate sam@example.com' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate this account?' });
    expect(dialog).toHaveTextContent('Sam Staff is signed out everywhere at once');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(getToasts().map((t) => t.message)).toContain('Sam Staff is deactivated.');
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/team/members/${SAM}/deactivate`)).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Reassign leads of sam@example.com' }));
    const reassign = await screen.findByRole('alertdialog', { name: 'Reassign their leads' });
    expect(within(reassign).getByRole('option', { name: 'Olive Owner (olive@example.com)' })).toHaveValue(OLIVE);
    await user.selectOptions(within(reassign).getByLabelText('New owner'), OLIVE);
    await user.click(within(reassign).getByRole('button', { name: 'Reassign' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('3 leads reassigned.'));
    expect(calls.find((c) => c.path.endsWith('/reassign'))?.body).toEqual({ to: OLIVE });
  });

  it('a refused role change says why', async () => {
    serve();
    render();
    await screen.findAllByTestId('team-member');
    await userEvent.setup({ delay: null }).selectOptions(screen.getByRole('combobox', { name: 'Role of olive@example.com' }), 'staff');
    await waitFor(() =>
      expect(getToasts().map((t) => t.message)).toContain('The team needs at least one active owner: make someone else an owner first.'),
    );
  });
});
