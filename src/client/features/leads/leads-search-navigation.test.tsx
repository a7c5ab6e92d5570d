// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { LeadsPage } from './leads-page.tsx';
import { SEARCH_DEBOUNCE_MS } from './use-lead-list-view.ts';

/*
 * Typing a search and clicking a lead before the search reached the URL: the lead page loads
 * (its code is fetched on first visit, and React keeps the list on screen meanwhile), and the
 * list's pending search must not fire then and take the person back to the list.
 */

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const listBody = (leads: Lead[]) => ({ leads, total: leads.length, page: 1, page_size: 20 });
const currentUrl = () => screen.getByTestId('current-url').textContent ?? '';

/** The lead page's route as the app has it: code loaded when first opened; `load()` finishes loading it. */
function lazyLeadPage() {
  let load: (() => void) | undefined;
  const Page = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve) => {
        load = () => resolve({ default: () => <h1>The lead page</h1> });
      }),
  );
  return { Page, load: () => load?.() };
}

describe('a search typed just before clicking a lead', () => {
  it('leaves the person on the lead page after the search delay has passed', async () => {
    const ada = makeLead({ full_name: 'Ada Lovelace' });
    mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([ada]) } : undefined));
    const leadPage = lazyLeadPage();
    renderWithProviders(
      <Suspense fallback={<p>Loading...</p>}>
        <Routes>
          <Route path="/dashboard/leads" element={<LeadsPage />} />
          <Route path="/dashboard/leads/:id" element={<leadPage.Page />} />
        </Routes>
      </Suspense>,
      { url: '/dashboard/leads' },
    );
    const link = await screen.findByRole('link', { name: 'Ada Lovelace' });

    // Only the page's own delays are faked (React's scheduler runs on setImmediate). Events are
    // fired directly: user-event's wrapper waits on a setTimeout of its own.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search leads' }), { target: { value: 'lov' } });
    fireEvent.click(link);
    // The click happened before the search's pause ended; the lead page is still loading.
    expect(currentUrl()).toBe('/dashboard/leads');

    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 3));
    await act(async () => leadPage.load());

    expect(currentUrl()).toBe(`/dashboard/leads/${ada.id}`);
    expect(screen.getByRole('heading', { name: 'The lead page' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 3));
    expect(currentUrl()).toBe(`/dashboard/leads/${ada.id}`);
  });
});
