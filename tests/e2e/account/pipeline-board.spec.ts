import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { ownServerForFile, signInOn, type OwnServer } from '../own-server.ts';
import { seriousViolations } from '../axe.ts';

/*
 * The pipeline board on a server of its own (the moves and the forecast count every deal): at
 * 1280 px a card dragged by mouse and by keyboard, moved with Move to, lost by a drop on Lost
 * with a reason, another person's move shown live, the forecast following each move; on a
 * 390 px phone one stage at a time with the Stage switcher. axe on the board and the dialog.
 */
const OWNER = { email: `board.${Date.now()}@own.test`, password: 'board-password-1' };
const ownServer = ownServerForFile({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });

type Stage = { id: string; name: string };

async function stagesOf(api: APIRequestContext, server: OwnServer): Promise<Record<string, string>> {
  const res = await api.get(`${server.baseURL}/api/pipeline/stages`);
  const { stages } = (await res.json()) as { stages: Stage[] };
  return Object.fromEntries(stages.map((s) => [s.name, s.id]));
}

/** A lead with a fee, put in a stage (as another person would, through the API). */
async function deal(api: APIRequestContext, server: OwnServer, name: string, feeCents: number, stageId: string): Promise<string> {
  const headers = { origin: server.baseURL };
  const created = await api.post(`${server.baseURL}/api/leads`, {
    headers,
    data: {
      full_name: name,
      email: `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.com`,
      phone: '(410) 555-0180',
      property_types: ['land'],
      estimated_fee_cents: feeCents,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await api.patch(`${server.baseURL}/api/leads/${id}`, { headers, data: { stage_id: stageId } })).status()).toBe(200);
  return id;
}

const column = (page: Page, stage: string) => page.getByRole('region', { name: stage, exact: true });
const card = (page: Page, name: string) => page.getByTestId('board-card').filter({ hasText: name });
const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US')}`;

async function forecast(api: APIRequestContext, server: OwnServer): Promise<number> {
  return ((await (await api.get(`${server.baseURL}/api/pipeline`)).json()) as { expected_fees_cents: number }).expected_fees_cents;
}

/** A mouse drag from the card to the middle of a stage's column, in small steps (dnd-kit starts after a few pixels). */
async function dragTo(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + 12);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 20, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + Math.min(b.height / 2, 60), { steps: 12 });
  await page.mouse.up();
}

test('deals move across the board by mouse, keyboard and Move to; Lost asks why; the forecast follows (1280 px)', async ({ page }) => {
  const server = ownServer();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInOn(page, server, OWNER);
  const stage = await stagesOf(page.request, server);
  await deal(page.request, server, 'Mia Mouse', 2_000_000, stage['Call booked']!);
  await deal(page.request, server, 'Kit Keys', 1_000_000, stage['New']!);
  await deal(page.request, server, 'Mo Menu', 400_000, stage['Engaged']!);
  await deal(page.request, server, 'Lou Lost', 800_000, stage['Proposal sent']!);

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Pipeline' }).click();
  await expect(page).toHaveURL(/\/dashboard\/pipeline$/);
  await expect(card(page, 'Mia Mouse')).toBeVisible();
  const expected = page.getByTestId('expected-fees');
  let cents = await forecast(page.request, server);
  await expect(expected).toHaveText(`Expected fees: ${dollars(cents)}`);
  await expect(column(page, 'Engaged').getByTestId('column-totals')).toHaveText(/^\d+ deals? · \$[\d,]+$/);
  await expect(card(page, 'Mia Mouse')).toContainText('$20,000');
  await expect(card(page, 'Mia Mouse')).toContainText('Less than a day in stage');
  await expect(card(page, 'Mia Mouse')).toContainText('No next task');
  await expect(card(page, 'Mia Mouse').getByRole('link', { name: 'Mia Mouse' })).toHaveAttribute('href', /\/dashboard\/leads\//);
  expect(await seriousViolations(page)).toEqual([]);

  // By mouse: Call booked (25 %) → Proposal sent (50 %): + $5,000.
  await dragTo(page, card(page, 'Mia Mouse'), column(page, 'Proposal sent'));
  await expect(column(page, 'Proposal sent').getByTestId('board-card').filter({ hasText: 'Mia Mouse' })).toBeVisible();
  cents += 500_000;
  await expect(expected).toHaveText(`Expected fees: ${dollars(cents)}`);
  await expect.poll(() => forecast(page.request, server)).toBe(cents);

  // By keyboard: the handle picks it up, an arrow key is a stage, Space drops it. New (10 %) → Call booked (25 %).
  await column(page, 'New').getByRole('button', { name: 'Drag Kit Keys' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('Picked up Kit Keys.')).toBeAttached();
  // dnd-kit's keyboard sensor starts listening for the arrow keys in a setTimeout(0) queued as
  // the drag starts, and the announcement can show before that timer runs (seen in CI on a
  // busy machine: the arrow key was lost). A timer of our own queued now runs after it.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Kit Keys is over Call booked.')).toBeAttached();
  await page.keyboard.press('Space');
  await expect(page.getByText('Kit Keys moved to Call booked.')).toBeAttached();
  await expect(column(page, 'Call booked').getByTestId('board-card').filter({ hasText: 'Kit Keys' })).toBeVisible();
  cents += 150_000;
  await expect(expected).toHaveText(`Expected fees: ${dollars(cents)}`);

  // Move to: Engaged (75 %) → Won, out of the forecast.
  const menuButton = card(page, 'Mo Menu').getByRole('button', { name: 'Move Mo Menu to' });
  await menuButton.click();
  const menu = page.getByRole('menu', { name: 'Move Mo Menu to' });
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  expect(await seriousViolations(page, { include: '[role="menu"]' })).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await menu.getByRole('menuitem', { name: 'Won' }).click();
  await expect(card(page, 'Mo Menu')).toHaveCount(0);
  await expect(column(page, 'Won').getByTestId('column-totals')).toContainText('1 deal · $4,000');
  cents -= 300_000;
  await expect(expected).toHaveText(`Expected fees: ${dollars(cents)}`);

  // A drop on Lost asks why first; refused without a reason, then lost for Price.
  await dragTo(page, card(page, 'Lou Lost'), column(page, 'Lost'));
  const lose = page.getByRole('dialog', { name: 'Why was Lou Lost’s deal lost?' });
  await lose.getByRole('button', { name: 'Mark lost' }).click();
  await expect(lose.getByText('Choose why the deal was lost')).toBeVisible();
  expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
  await lose.getByLabel('Reason').selectOption('Price');
  await lose.getByRole('button', { name: 'Mark lost' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved to Lost: Price.' })).toBeVisible();
  await expect(card(page, 'Lou Lost')).toHaveCount(0);
  await expect(column(page, 'Lost').getByTestId('column-totals')).toContainText('1 deal · $8,000');
  cents -= 400_000;
  await expect(expected).toHaveText(`Expected fees: ${dollars(cents)}`);

  // Another person's move shows within a second (the live stream: the 1 s below the default is the claim), and the Overview has the same forecast.
  const other = await deal(page.request, server, 'Ola Other', 100_000, stage['New']!);
  await expect(column(page, 'New').getByTestId('board-card').filter({ hasText: 'Ola Other' })).toBeVisible();
  await page.request.patch(`${server.baseURL}/api/leads/${other}`, {
    headers: { origin: server.baseURL },
    data: { stage_id: stage['Engaged'] },
  });
  await expect(column(page, 'Engaged').getByTestId('board-card').filter({ hasText: 'Ola Other' })).toBeVisible({ timeout: 1000 });
  cents += 75_000;
  await expect(expected).toHaveText(`Expected fees: ${dollars(cents)}`);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('link', { name: /^Expected fees/ })).toContainText(dollars(cents));

  // Filters live in the URL: Unassigned keeps every deal here (nobody owns them), Mine none.
  await page.goto(`${server.baseURL}/dashboard/pipeline?owner=me`);
  await expect(page.getByLabel('Owner')).toHaveValue('me');
  await expect(page.getByTestId('board-card')).toHaveCount(0);
  await expect(column(page, 'New').getByText('No deals in this stage.')).toBeVisible();
  await expect(expected).toHaveText('Expected fees: $0');
  await page.getByLabel('Owner').selectOption('none');
  await expect(page).toHaveURL(/owner=none/);
  await expect(card(page, 'Mia Mouse')).toBeVisible();
});

test('on a phone one stage shows at a time, chosen in Stage, and Move to moves the deal (390 px)', async ({ page }) => {
  const server = ownServer();
  await page.setViewportSize({ width: 390, height: 844 });
  await signInOn(page, server, OWNER);
  const stage = await stagesOf(page.request, server);
  await deal(page.request, server, 'Pip Phone', 1_200_000, stage['Call booked']!);
  await page.goto(`${server.baseURL}/dashboard/pipeline`);
  const switcher = page.getByLabel('Stage', { exact: true });
  await expect(switcher).toBeVisible();
  await expect(page.getByTestId('board-column')).toHaveCount(1);
  await switcher.selectOption({ label: (await switcher.locator('option', { hasText: 'Call booked' }).textContent())! });
  await expect(card(page, 'Pip Phone')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const before = await forecast(page.request, server);
  await card(page, 'Pip Phone').getByRole('button', { name: 'Move Pip Phone to' }).click();
  await page.getByRole('menu', { name: 'Move Pip Phone to' }).getByRole('menuitem', { name: 'Engaged' }).click();
  await expect(card(page, 'Pip Phone')).toHaveCount(0);
  await expect(page.getByTestId('expected-fees')).toHaveText(`Expected fees: ${dollars(before + 600_000)}`);
  await switcher.selectOption({ label: (await switcher.locator('option', { hasText: 'Engaged' }).textContent())! });
  await expect(card(page, 'Pip Phone')).toBeVisible();
  // Won shows its deals when chosen here.
  await switcher.selectOption({ label: (await switcher.locator('option', { hasText: 'Won' }).textContent())! });
  await expect(page.getByTestId('board-column')).toContainText(/deal/);
  // No sideways board.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});
