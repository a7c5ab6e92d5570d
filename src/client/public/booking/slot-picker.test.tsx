// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import { addDays, utcDay } from '#shared/zoned-time';
import { firstAvailabilityPage } from './slot-format.ts';
import { SlotPicker } from './slot-picker.tsx';

/*
 * The picker asks for open times a page of dates at a time (the most one request may ask
 * for), the next page when the days shown run out, up to the last date that may be booked.
 * A fake server: open days spread thinly over the year, two times each.
 */
const first = firstAvailabilityPage().from;
const lastDate = addDays(first, 100);
/** Open: the 10th, 20th, 25th, 30th... days after the first page's first date (thin in the first month). */
const openDays = [10, 20, 35, 38, 41, 44, 47, 50, 70, 95].map((n) => addDays(first, n));
const asked: { from: string; to: string; host?: string }[] = [];
let failNext = false;
/** Set: the second page's answer waits for it. */
let holdSecondPage: Promise<void> | null = null;
/** What GET /api/public/hosts answers: by default, no choice of person. */
let hosts: { choose: boolean; hosts: { id: string; name: string; initials: string }[] } = { choose: false, hosts: [] };
const booked: unknown[] = [];

function answer(from: string, to: string) {
  const slots = openDays
    .filter((d) => d >= from && d <= to && d <= lastDate)
    .flatMap((d) => [`${d}T09:00:00-05:00`, `${d}T10:00:00-05:00`]);
  return { enabled: true, time_zone: 'America/New_York', slot_minutes: 60, types: ['Call', 'Zoom'], slots, last_date: lastDate };
}

beforeEach(() => {
  asked.length = 0;
  booked.length = 0;
  failNext = false;
  holdSecondPage = null;
  hosts = { choose: false, hosts: [] };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.pathname === '/api/public/hosts') return json(hosts);
    if (url.pathname === '/api/public/bookings') {
      booked.push(JSON.parse(String(init?.body)));
      return json({ error: { code: 'conflict', message: 'Sorry, that time was just taken. Please pick another time.' } }, 409);
    }
    const from = url.searchParams.get('from')!;
    const to = url.searchParams.get('to')!;
    const host = url.searchParams.get('host_id');
    asked.push({ from, to, ...(host && { host }) });
    if (asked.length === 2 && holdSecondPage) await holdSecondPage;
    if (failNext) {
      failNext = false;
      return new Response('{"error":{"code":"internal","message":"x"}}', { status: 500, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify(answer(from, to)), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dayRadios = () => within(screen.getByRole('group', { name: 'Day' })).getAllByRole('radio');
const days = (from: string, to: string) => (utcDay(to) - utcDay(from)) / 86_400_000 + 1;

function renderPicker() {
  render(
    <SlotPicker
      token={'t'.repeat(43)}
      mode="book"
      heading="Pick a time for your free call"
      onDone={() => {}}
      onSkip={() => {}}
      skipLabel="Skip, call me instead"
    />,
  );
}

describe('SlotPicker paging', () => {
  it('asks page after page, each at most the longest range, while the days shown run out, and stops at the last date', async () => {
    const user = userEvent.setup({ delay: null });
    renderPicker();
    // Two open days in the first page, so it asks on until it has more than six to show.
    await waitFor(() => expect(dayRadios()).toHaveLength(6));
    expect(asked).toEqual([
      { from: first, to: addDays(first, AVAILABILITY_MAX_DAYS - 1) },
      { from: addDays(first, AVAILABILITY_MAX_DAYS), to: addDays(first, 2 * AVAILABILITY_MAX_DAYS - 1) },
    ]);
    expect(dayRadios().find((r) => (r as HTMLInputElement).checked)).toHaveAttribute('value', openDays[0]);

    await user.click(screen.getByRole('button', { name: 'Show more days' }));
    await waitFor(() => expect(dayRadios()).toHaveLength(openDays.length));
    // The rest came in one more page, which reached the last date: no more to ask or show.
    expect(asked).toHaveLength(4);
    for (const { from, to } of asked) expect(days(from, to)).toBeLessThanOrEqual(AVAILABILITY_MAX_DAYS);
    for (let i = 1; i < asked.length; i++) expect(asked[i]!.from).toBe(addDays(asked[i - 1]!.to, 1));
    expect(asked.at(-1)!.to >= lastDate).toBe(true);
    expect(screen.queryByRole('button', { name: 'Show more days' })).toBeNull();
  });

  it('shows the days only once the first screen of them is in, so later pages never push the times down', async () => {
    let release = () => {};
    holdSecondPage = new Promise<void>((r) => {
      release = r;
    });
    renderPicker();
    // The first page held two open days: still loading, no form yet, while the second is asked.
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(screen.getByRole('status')).toHaveTextContent('Loading open times…');
    expect(screen.queryByRole('group', { name: 'Day' })).toBeNull();
    release();
    // It appears whole: six days at once, the first one chosen, and times for it.
    await waitFor(() => expect(dayRadios()).toHaveLength(6));
    expect(within(screen.getByRole('group', { name: /^Time on / })).getAllByRole('radio')).toHaveLength(2);
  });

  it('offers to try again when a later page fails, keeping the days it has', async () => {
    const user = userEvent.setup({ delay: null });
    renderPicker();
    await waitFor(() => expect(dayRadios()).toHaveLength(6));
    failNext = true;
    await user.click(screen.getByRole('button', { name: 'Show more days' }));
    await screen.findByText('More days could not be loaded. Please try again.');
    expect(dayRadios()).toHaveLength(8);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(dayRadios()).toHaveLength(openDays.length));
  });
});

describe('SlotPicker with a choice of person', () => {
  const SAM = '00000000-0000-4000-8000-00000000000b';
  it('offers no choice by default; when the firm lets visitors choose, asks that person’s times and books with them', async () => {
    const user = userEvent.setup({ delay: null });
    renderPicker();
    await waitFor(() => expect(dayRadios()).toHaveLength(6));
    expect(screen.queryByRole('combobox', { name: 'With' })).toBeNull();
    cleanup();

    hosts = {
      choose: true,
      hosts: [
        { id: '00000000-0000-4000-8000-00000000000a', name: 'Olive Owner', initials: 'OO' },
        { id: SAM, name: 'Sam Staff', initials: 'SS' },
      ],
    };
    asked.length = 0;
    renderPicker();
    const withWhom = await screen.findByRole('combobox', { name: 'With' });
    expect(withWhom).toHaveValue('');
    expect(
      within(withWhom)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Any available', 'Olive Owner', 'Sam Staff']);
    await waitFor(() => expect(dayRadios()).toHaveLength(6));
    await user.selectOptions(withWhom, 'Sam Staff');
    await waitFor(() => expect(asked.some((a) => a.from === first && a.host === SAM)).toBe(true));
    await waitFor(() => expect(dayRadios()).toHaveLength(6));
    await user.click(within(screen.getByRole('group', { name: /time/i })).getAllByRole('radio')[0]!);
    await user.click(screen.getByRole('button', { name: /^Confirm/ }));
    await waitFor(() => expect(booked).toHaveLength(1));
    expect(booked[0]).toMatchObject({ host_id: SAM });
  });
});
