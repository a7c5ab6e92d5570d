import { expect, request } from '@playwright/test';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../../src/server/test/open-every-day.ts';
import { E2E_ADMIN } from './server-env.ts';

/**
 * What every browser-test server is set to before any test reaches it (the shared servers in
 * global-setup.ts, a worker's quiet server in fixtures.ts), beside its environment
 * (server-env.ts): booking open every day 9 to 5 with no notice, and its owner E2E_ADMIN, the
 * one person who takes website calls, working every day, holidays too. A spec that books then
 * finds open times whatever the day and hour it runs, and none changes these (a spec that
 * must, runs a server of its own).
 */
export async function prepareE2eServer(baseURL: string): Promise<void> {
  const api = await request.newContext({
    baseURL,
    ignoreHTTPSErrors: baseURL.startsWith('https:'),
    extraHTTPHeaders: { origin: new URL(baseURL).origin, 'x-forwarded-for': '10.255.255.1' },
  });
  try {
    const signedIn = await api.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
    expect(signedIn.status(), await signedIn.text()).toBe(200);
    const settings = await api.put('/api/booking-settings', { data: OPEN_EVERY_DAY });
    expect(settings.status(), await settings.text()).toBe(200);
    const hours = await api.put('/api/account/availability', { data: WORKS_EVERY_DAY });
    expect(hours.status(), await hours.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}
