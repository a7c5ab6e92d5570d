import { randomInt, randomUUID } from 'node:crypto';
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { prepareE2eServer } from './prepare-server.ts';
import { E2E_ADMIN, e2eServerEnv } from './server-env.ts';
import { SLOW } from './slow.ts';

/*
 * What every browser test starts from, in the manner of epic-stack's tests/playwright-utils.ts:
 * each test makes its own data and never counts anyone else's.
 *
 * - `login()` makes an account of the test's own (a fresh owner, or staff, with a unique email
 *   and name) and signs the page's browser context in as it; `newAdmin()` makes one without
 *   signing in (to sign in through the form, or as a second person). Both are removed when the
 *   test ends, so the team stays small and no later lead notifies them.
 * - `createLead()` and `createAppointment()` make the test's own leads and appointments through
 *   the API, with unique names and emails.
 * - A test whose subject is a count of rows every account sees (the bell's unread count, the
 *   Overview's totals, live toasts) runs on the worker's quiet server (`onQuietServer()`): a
 *   server only that worker's tests reach, one test at a time, so nothing else writes while it
 *   counts.
 * - Each test sends its own client IP (X-Forwarded-For; the servers run with TRUST_PROXY=1),
 *   so the per-IP limits of one test never touch another.
 */

export type Role = 'owner' | 'staff';
/** An account a test made for itself: who it is, and how to sign in as it. */
export type Admin = { id: string; email: string; password: string; name: string; role: Role };
export type AdminOptions = { role?: Role; name?: string };
/**
 * `page`: sign in that page's browser context (another person's window) instead of the test's
 * page; `api`: sign in that API client instead (the page stays a visitor's).
 */
export type LoginOptions = AdminOptions & { page?: Page; api?: APIRequestContext };

type TestFixtures = {
  clientIp: string;
  /** A new account of this test's own (an owner unless `role` says staff), not signed in anywhere. */
  newAdmin: (options?: AdminOptions) => Promise<Admin>;
  /** A new account of this test's own, with the page's browser context signed in as it (the session cookie set). */
  login: (options?: LoginOptions) => Promise<Admin>;
};

type WorkerFixtures = {
  accounts: Accounts;
  quietServer: OwnServer;
};

/** The origin of the server the running test talks to (its baseURL): the Origin of its admin API calls. */
let activeOrigin: string | undefined;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  clientIp: [
    async ({ context, baseURL }, use) => {
      activeOrigin = baseURL ? new URL(baseURL).origin : undefined;
      const ip = randomIp();
      // On the context, so `page.request` (the context's API client) sends it too, not only the page.
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': ip });
      await use(ip);
      activeOrigin = undefined;
    },
    { auto: true },
  ],

  // Both have a time limit of their own (SLOW.accountCleanup): the removal after the test is not
  // charged to the test's. Making the account happens in the test's body, within the test's.
  newAdmin: [
    async ({ baseURL, accounts }, use) => {
      const made: Admin[] = [];
      await use(async (options = {}) => {
        const admin = await accounts.make(baseURL!, options);
        made.push(admin);
        return admin;
      });
      for (const admin of made) await accounts.remove(baseURL!, admin);
    },
    { timeout: SLOW.accountCleanup },
  ],

  login: [
    async ({ baseURL, accounts, page }, use) => {
      const made: Admin[] = [];
      await use(async ({ page: other, api, ...options } = {}) => {
        const admin = await accounts.make(baseURL!, options, api ?? (other ?? page).request);
        made.push(admin);
        return admin;
      });
      for (const admin of made) await accounts.remove(baseURL!, admin);
    },
    { timeout: SLOW.accountCleanup },
  ],

  accounts: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const accounts = new Accounts();
      await use(accounts);
      await accounts.dispose();
    },
    { scope: 'worker' },
  ],

  quietServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startOwnServer(e2eServerEnv());
      await prepareE2eServer(server.baseURL);
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: SLOW.serverStart },
  ],
});

export { expect, E2E_ADMIN };

/**
 * Runs the tests of the calling file (or `test.describe`) on the worker's quiet server, a
 * server of the worker's own with the shared one's settings (tests/e2e/server-env.ts), started
 * the first time a test needs it: its tests run one at a time, so a count there is the test's
 * own. What earlier tests of the worker left there stays: a test counts what it added, or
 * what its own account sees. Relative URLs, `login()` and the helpers below all go to it.
 */
export function onQuietServer() {
  test.use({ baseURL: async ({ quietServer }, use) => use(quietServer.baseURL) });
}

/**
 * The accounts the tests make, through the API as a person would: the owner the servers start
 * with (E2E_ADMIN, signed in once per worker and server) invites a unique email, and the test
 * accepts the invitation, which signs its context in. Removed again by the owner.
 */
class Accounts {
  private owners = new Map<string, Promise<APIRequestContext>>();

  async make(baseURL: string, { role = 'owner', name }: AdminOptions, signIn?: APIRequestContext): Promise<Admin> {
    const tag = randomUUID().slice(0, 8);
    const email = `admin.${tag}@example.com`;
    const admin = { email, password: `e2e-${randomUUID()}`, name: name ?? `Ada Admin ${tag}`, role };
    const invited = await this.asOwner(baseURL, (owner) => owner.post('/api/team/invites', { data: { email, role } }));
    expect(invited.status(), await invited.text()).toBe(201);
    const token = new URL(((await invited.json()) as { link: string }).link).pathname.split('/').pop();
    const api = signIn ?? (await apiContext(baseURL));
    try {
      const accepted = await api.post('/api/auth/invites/accept', {
        data: { token, display_name: admin.name, password: admin.password, confirm: admin.password },
        headers: { origin: new URL(baseURL).origin },
      });
      expect(accepted.status(), await accepted.text()).toBe(201);
      const { user } = (await accepted.json()) as { user: { id: string } };
      return { id: user.id, ...admin };
    } finally {
      if (!signIn) await api.dispose();
    }
  }

  async remove(baseURL: string, admin: Admin): Promise<void> {
    const removed = await this.asOwner(baseURL, (owner) => owner.delete(`/api/team/members/${admin.id}`));
    // 404: the test removed it itself.
    expect([200, 404], await removed.text()).toContain(removed.status());
  }

  async dispose(): Promise<void> {
    for (const owner of this.owners.values()) await (await owner.catch(() => undefined))?.dispose();
    this.owners.clear();
  }

  /**
   * `call` as the owner of the server at `baseURL`, signed in again if its session has ended.
   * The owner's request context lives across tests, so its kept-alive socket may sit idle past
   * the server's keepAliveTimeout (5 s); a call sent just as the server closes it meets a reset
   * before the server read it, and is sent once more on a new socket. (Seen once in CI, on the
   * removal after a test.)
   */
  private async asOwner(baseURL: string, call: (owner: APIRequestContext) => ReturnType<APIRequestContext['get']>) {
    const once = async () => {
      const owner = await this.ownerOn(baseURL);
      try {
        return await call(owner);
      } catch (error) {
        if (!/ECONNRESET|socket hang up/.test(String(error))) throw error;
        return call(owner);
      }
    };
    const answer = await once();
    if (answer.status() !== 401) return answer;
    this.owners.delete(baseURL);
    return once();
  }

  private ownerOn(baseURL: string): Promise<APIRequestContext> {
    let owner = this.owners.get(baseURL);
    if (!owner) {
      owner = (async () => {
        const api = await apiContext(baseURL, { origin: new URL(baseURL).origin });
        const signedIn = await api.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
        expect(signedIn.status(), await signedIn.text()).toBe(200);
        return api;
      })();
      this.owners.set(baseURL, owner);
      owner.catch(() => this.owners.delete(baseURL));
    }
    return owner;
  }
}

/** An API client of its own (its own cookies) for the server at `baseURL`, from an address of its own. */
function apiContext(baseURL: string, headers: Record<string, string> = {}) {
  return playwrightRequest.newContext({
    baseURL,
    ignoreHTTPSErrors: baseURL.startsWith('https:'),
    extraHTTPHeaders: { 'x-forwarded-for': randomIp(), ...headers },
  });
}

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * The Origin header of the site's own pages, for the admin API requests a spec makes through
 * page.request: Playwright's API client sends none, and the server refuses a change without it.
 */
export const fromTheSite = () => ({ origin: activeOrigin ?? new URL(base.info().project.use.baseURL!).origin });

/** A tag for the names and emails of a test's own rows: searching for it finds them and nothing else. */
export const uniqueTag = () => randomUUID().slice(0, 8);

export type Lead = {
  id: string;
  full_name: string;
  email: string;
  phone: string;
  status: string;
  contacted: boolean;
  property_types: string[];
};

/**
 * A lead of the test's own, through the admin API as `api` (a signed-in `page.request`): a
 * unique name and email unless `fields` gives them.
 */
export async function createLead(api: APIRequestContext, fields: Record<string, unknown> = {}): Promise<Lead> {
  const tag = uniqueTag();
  const res = await api.post('/api/leads', {
    data: { full_name: `Lena Lead ${tag}`, email: `lena.${tag}@example.com`, phone: '(301) 555-0100', property_types: ['land'], ...fields },
    headers: fromTheSite(),
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Lead;
}

export type AppointmentInput = {
  lead_id: string;
  date: string;
  time: string;
  type?: 'Call' | 'Zoom' | 'On-site';
  notes?: string;
  allow_overlap?: boolean;
};

/** An appointment of the test's own (its account is the host, so it overlaps nobody else's), through the admin API as `api`. */
export async function createAppointment(api: APIRequestContext, input: AppointmentInput): Promise<{ id: string; status: string }> {
  const res = await api.post('/api/appointments', { data: { type: 'Call', notes: '', ...input }, headers: fromTheSite() });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; status: string };
}

/** Opens a public page and waits until the browser bundle has hydrated it. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  return response;
}

export const SITE_NAME = 'Keystone Due Diligence';

/** Signs `admin` in through the login page and waits for where it leads (the Overview, unless the guard sent the page elsewhere). */
export async function signInThroughTheForm(page: Page, admin: Pick<Admin, 'email' | 'password'>, path = '/login') {
  await page.goto(path);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export type LeadInput = { name: string; email: string; phone: string; propertyType: string; message?: string };

export const VALID_LEAD: LeadInput = {
  name: 'Jordan Investor',
  email: 'jordan@example.com',
  phone: '(240) 555-0199',
  propertyType: 'Multifamily',
  message: '12-unit building in Frederick, MD.',
};

export async function fillLeadForm(page: Page, lead: LeadInput) {
  const form = page.locator('#contact form');
  await form.getByLabel('Full name').fill(lead.name);
  await form.getByLabel('Email').fill(lead.email);
  await form.getByLabel('Phone').fill(lead.phone);
  await form.getByLabel('Property type').selectOption({ label: lead.propertyType });
  if (lead.message !== undefined) await form.getByLabel('Additional information').fill(lead.message);
}

/**
 * POST /api/public/leads as the page's form does: with a form token from the server, sent once
 * it is as old as the server's minimum (LEAD_MIN_FILL_SECONDS is on in the browser tests), and
 * the empty honeypot. Sooner, or without them, the server drops or refuses it.
 */
export async function postPublicLead(api: APIRequestContext, lead: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await api.get('/api/public/form-token');
  expect(res.status()).toBe(200);
  const { form_token, min_age_seconds } = (await res.json()) as { form_token: string; min_age_seconds: number };
  // A real wait: the token ages on the server's clock, which nothing in the browser can move (the page's form waits the same way).
  await new Promise((resolve) => setTimeout(resolve, min_age_seconds * 1000 + 200));
  return api.post('/api/public/leads', { data: { website: '', ...lead, form_token }, ...(headers ? { headers } : {}) });
}
