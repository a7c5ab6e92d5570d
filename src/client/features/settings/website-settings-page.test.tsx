// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultWebsiteContent, type WebsiteContent } from '#shared/website-content';
import { toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { WebsiteSettingsPage } from './website-settings-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SAVED = { ...defaultWebsiteContent('Harbor Diligence', { email: 'hello@harbor.test', phone: '(410) 555-0199' }), updated_at: null };

/** GET answers the saved words; PUT answers `save(call)`, or echoes the body as saved. */
function serve(save?: (call: ApiCall) => { status?: number; body: unknown }) {
  return mockApi((call) => {
    if (call.path !== '/api/website') return undefined;
    if (call.method === 'GET') return { body: SAVED };
    if (call.method === 'PUT')
      return save ? save(call) : { body: { ...(call.body as WebsiteContent), updated_at: new Date().toISOString() } };
    return undefined;
  });
}

const puts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'PUT');

async function renderPage() {
  renderWithProviders(<WebsiteSettingsPage />, { url: '/dashboard/settings/website' });
  await screen.findByRole('heading', { level: 2, name: 'Website' });
}

describe('WebsiteSettingsPage', () => {
  it('groups every claim, the brand and the contact under a legend, starting from the saved words', async () => {
    serve();
    await renderPage();
    const legends = screen.getAllByRole('group').map((g) => g.querySelector('legend')?.textContent);
    expect(legends).toEqual([
      'Brand and contact',
      'Search results and shared links',
      'Top of the page',
      'Figures under the headline',
      'About',
      'Services',
      'How it works',
      'Why choose us',
      'Contact and footer',
      'Where you are, and who you are',
    ]);
    expect(screen.getByLabelText('Brand name')).toHaveValue('Harbor Diligence');
    expect(screen.getByLabelText('Email')).toHaveValue('hello@harbor.test');
    expect(screen.getByLabelText('Phone')).toHaveValue('(410) 555-0199');
    expect(screen.getByLabelText('Reason 3 title')).toHaveValue('All 50 States');
    expect(screen.getByLabelText('Step 2: Get your report')).toHaveValue(
      'Within 24 hours you receive a detailed report, reviewed by a local expert.',
    );
    expect(screen.getByLabelText('Footer tagline')).toHaveValue(SAVED.tagline);
    expect(screen.getByRole('complementary', { name: 'Preview' })).toHaveTextContent(
      'Harbor Diligence | Real Estate Due Diligence & Underwriting',
    );
  });

  it('removes figures down to one and adds them up to four, moving focus to what comes next, and saves what is shown', async () => {
    const { calls } = serve();
    await renderPage();
    const user = userEvent.setup({ delay: null });
    const figures = screen.getByRole('group', { name: /Figures under the headline/ });
    expect(within(figures).getByRole('button', { name: 'Add a figure' })).toBeDisabled();

    await user.click(within(figures).getByRole('button', { name: 'Remove figure 2' }));
    expect(within(figures).getByRole('button', { name: 'Add a figure' })).toHaveFocus();
    expect(
      within(figures)
        .getAllByLabelText(/^Figure \d$/)
        .map((f) => (f as HTMLInputElement).value),
    ).toEqual(['24hr', '100+', '5,000+']);
    await user.click(within(figures).getByRole('button', { name: 'Remove figure 3' }));
    await user.click(within(figures).getByRole('button', { name: 'Remove figure 2' }));
    expect(within(figures).getByRole('button', { name: 'Remove figure 1' })).toBeDisabled();

    await user.click(within(figures).getByRole('button', { name: 'Add a figure' }));
    expect(within(figures).getByLabelText('Figure 2')).toHaveFocus();
    await user.keyboard('6');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The new figure needs its label: refused in the browser, under the field, which gets focus.
    expect(await screen.findByText('Label is required')).toBeInTheDocument();
    expect(within(figures).getByLabelText('Label 2')).toHaveFocus();
    expect(puts(calls)).toEqual([]);
    await user.type(within(figures).getByLabelText('Label 2'), 'States');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect((puts(calls)[0]!.body as WebsiteContent).stats).toEqual([
      { value: '24hr', label: 'Turnaround' },
      { value: '6', label: 'States' },
    ]);
  });

  it('refuses a bad email and phone under their fields, keeping everything typed', async () => {
    const { calls } = serve();
    await renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'desk@harbor');
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), 'call us');
    await user.clear(screen.getByLabelText('Reason 3 title'));
    await user.type(screen.getByLabelText('Reason 3 title'), 'Six States');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email address');
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription('Invalid phone number: use 7 to 15 digits, like (301) 555-0100');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getByLabelText('Reason 3 title')).toHaveValue('Six States');
    expect(puts(calls)).toEqual([]);
  });

  it('shows the server’s refusal under the field and keeps what was typed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serve(() => ({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          fields: { tagline: 'Tagline must be at most 200 characters' },
        },
      },
    }));
    await renderPage();
    const user = userEvent.setup({ delay: null });
    await user.clear(screen.getByLabelText('Footer tagline'));
    await user.type(screen.getByLabelText('Footer tagline'), 'Diligence for the Mid-Atlantic');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Footer tagline')).toHaveAccessibleDescription('Tagline must be at most 200 characters'),
    );
    expect(screen.getByLabelText('Footer tagline')).toHaveValue('Diligence for the Mid-Atlantic');
  });
});
