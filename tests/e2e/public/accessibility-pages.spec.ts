import { DASHBOARD_STATES, expect, MOBILE_LEAD_FILTERS, MOBILE_SIDEBAR, PUBLIC_STATES, signIn, test, VIEWPORTS } from '../showcase.ts';
import { seriousViolations } from '../axe.ts';

/*
 * axe on every page and open modal, dropdown and menu, with seeded data, at desktop size and
 * on a 360 px phone. The pages run on a server of their own (./showcase.ts).
 */
test.use({ timezoneId: 'UTC' });

for (const [viewport, size] of Object.entries(VIEWPORTS)) {
  test.describe(`axe at ${viewport} size (${size.width}x${size.height})`, () => {
    test.use({ viewport: size, ...(viewport === 'mobile' ? { isMobile: true, hasTouch: true } : {}) });

    test('public pages and login: no serious or critical violations', async ({ page, showcase }) => {
      // Every public page, a form sent and a call booked, each checked by axe: more than the default 30 s on a busy 2-core machine.
      test.setTimeout(90_000);
      const found: Record<string, string[]> = {};
      for (const state of PUBLIC_STATES) {
        await state.open(page, showcase);
        found[state.name] = await seriousViolations(page);
      }
      expect(found).toEqual(Object.fromEntries(PUBLIC_STATES.map((s) => [s.name, []])));
    });

    test('every dashboard page, modal and the notification dropdown: no serious or critical violations', async ({ page, showcase }) => {
      // About 30 states (the calendar's three views among them): past 120 s on a busy 2-core machine.
      test.setTimeout(180_000);
      await signIn(page, showcase);
      const states = viewport === 'mobile' ? [...DASHBOARD_STATES, MOBILE_LEAD_FILTERS, MOBILE_SIDEBAR] : DASHBOARD_STATES;
      const found: Record<string, string[]> = {};
      for (const state of states) {
        await state.open(page, showcase);
        found[state.name] = await seriousViolations(page);
      }
      expect(found).toEqual(Object.fromEntries(states.map((s) => [s.name, []])));
    });
  });
}
