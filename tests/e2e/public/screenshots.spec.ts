import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
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

/*
 * A screenshot of every page and open modal, with seeded data, at 1280x800 and 360x740, into
 * artifacts/screenshots/<viewport>-<page>.png (kept by CI, not committed). Each page must also
 * fit the width of the screen: no sideways scrolling.
 */
export const SCREENSHOT_DIR = path.resolve('artifacts/screenshots');

test.use({ timezoneId: 'UTC' });

async function capture(page: Page, showcase: Showcase, viewport: string, states: PageState[]) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const wide: string[] = [];
  for (const state of states) {
    await state.open(page, showcase);
    // Transitions (dialogs, the sidebar) settle before the picture.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    const file = path.join(SCREENSHOT_DIR, `${viewport}-${state.name}.png`);
    await page.screenshot({ path: file, fullPage: !/modal|details|notifications|sidebar|menu/.test(state.name) });
    expect(statSync(file).size).toBeGreaterThan(5_000);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) wide.push(`${state.name}: ${overflow} px too wide`);
  }
  expect(wide).toEqual([]);
}

for (const [viewport, size] of Object.entries(VIEWPORTS)) {
  test.describe(`screenshots at ${viewport} size (${size.width}x${size.height})`, () => {
    test.use({ viewport: size, ...(viewport === 'mobile' ? { isMobile: true, hasTouch: true } : {}) });

    test('public pages and login', async ({ page, showcase }) => {
      await capture(page, showcase, viewport, PUBLIC_STATES);
    });

    test('dashboard pages, modals and the notification dropdown', async ({ page, showcase }) => {
      // About 30 states (the calendar's three views among them): past 120 s on a busy 2-core machine.
      test.setTimeout(180_000);
      await signIn(page, showcase);
      await capture(
        page,
        showcase,
        viewport,
        viewport === 'mobile' ? [...DASHBOARD_STATES, MOBILE_LEAD_FILTERS, MOBILE_SIDEBAR] : DASHBOARD_STATES,
      );
    });
  });
}

test.afterAll(() => {
  console.log(`Screenshots: ${SCREENSHOT_DIR}`);
});
