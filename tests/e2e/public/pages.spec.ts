import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../axe.ts';
import {
  DASHBOARD_STATES,
  expect,
  MOBILE_LEAD_FILTERS,
  MOBILE_SIDEBAR,
  PUBLIC_STATES,
  signIn,
  test,
  VIEWPORTS,
  type PageState,
  type Showcase,
} from '../showcase.ts';
import { SLOW } from '../slow.ts';

/*
 * Every page and open modal, dropdown and menu, with seeded data, at 1280x800 and on a 360x740
 * phone, each opened once and then: a screenshot into artifacts/screenshots/<viewport>-<page>.png
 * (kept by CI, not committed), no sideways scrolling, and no serious or critical axe finding.
 * The pages run on a server of their own per worker (../showcase.ts); the parts below run on
 * both workers at once.
 */
export const SCREENSHOT_DIR = path.resolve('artifacts/screenshots');

test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'parallel' });

/** The dashboard's states in parts that each begin by opening a page of their own (the states within a part build on each other). */
const PART_STARTS = ['overview', 'appointments-calendar', 'settings-email', 'account'];
function dashboardParts(states: PageState[]): PageState[][] {
  const starts = PART_STARTS.map((name) => states.findIndex((s) => s.name === name));
  if (starts.includes(-1)) throw new Error(`a part starts at a state that is gone: ${PART_STARTS.join(', ')}`);
  return starts.map((start, i) => states.slice(start, starts[i + 1] ?? states.length));
}

async function checkEach(page: Page, showcase: Showcase, viewport: string, states: PageState[]) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const wide: string[] = [];
  const found: Record<string, string[]> = {};
  for (const state of states) {
    await state.open(page, showcase);
    // Transitions (dialogs, the sidebar) settle before the picture.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    const file = path.join(SCREENSHOT_DIR, `${viewport}-${state.name}.png`);
    await page.screenshot({ path: file, fullPage: !/modal|details|notifications|sidebar|menu/.test(state.name) });
    expect(statSync(file).size).toBeGreaterThan(5_000);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) wide.push(`${state.name}: ${overflow} px too wide`);
    found[state.name] = await seriousViolations(page);
  }
  expect(wide).toEqual([]);
  expect(found).toEqual(Object.fromEntries(states.map((s) => [s.name, []])));
}

for (const [viewport, size] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${viewport} size (${size.width}x${size.height})`, () => {
    test.use({ viewport: size, ...(viewport === 'mobile' ? { isMobile: true, hasTouch: true } : {}) });

    test('public pages and login: screenshots, no sideways scroll, no serious or critical axe finding', async ({ page, showcase }) => {
      // Every public page, a form sent and a call booked, each checked by axe.
      test.setTimeout(SLOW.walk);
      await checkEach(page, showcase, viewport, PUBLIC_STATES);
    });

    const states = viewport === 'mobile' ? [...DASHBOARD_STATES, MOBILE_LEAD_FILTERS, MOBILE_SIDEBAR] : DASHBOARD_STATES;
    for (const part of dashboardParts(states)) {
      test(`dashboard, ${part[0]!.name} to ${part.at(-1)!.name}: screenshots, no sideways scroll, no serious or critical axe finding`, async ({
        page,
        showcase,
      }) => {
        // About ten states, modals among them, each checked by axe.
        test.setTimeout(SLOW.walk);
        await signIn(page, showcase);
        await checkEach(page, showcase, viewport, part);
      });
    }
  });
}

test.afterAll(() => {
  console.log(`Screenshots: ${SCREENSHOT_DIR}`);
});
