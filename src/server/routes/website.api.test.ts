import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ErrorResponse } from '#shared/schemas/error';
import { DEFAULT_WEBSITE_CONTENT, type WebsiteContent, type WebsiteResponse } from '#shared/schemas/website';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { tempDir } from '../test/process.ts';

const database = useTestDatabase();

/** A built client in miniature: a landing page and the terms, with the prerender's placeholder tokens. */
function clientDir() {
  const dir = tempDir('website-client');
  mkdirSync(path.join(dir, 'terms'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><h1>%%W_HEADLINE%%</h1><p>%%W_SUBHEADLINE%%</p><li>%%W_STAT3_VALUE%% %%W_STAT3_LABEL%%</li><h3>%%W_SERVICE0_TITLE%%</h3>' +
      '<span>%%W_CITY%%</span><footer>© %%YEAR%% %%SITE_NAME%%</footer><script type="application/json" id="site-config">%%SITE_CONFIG_JSON%%</script>',
  );
  writeFileSync(path.join(dir, 'terms/index.html'), '<!doctype html><h1>Terms of Service</h1><p>between you and %%W_ENTITY%%, %%W_ADDRESS%%</p>');
  writeFileSync(path.join(dir, '404.html'), '<!doctype html><h1>Page Not Found</h1>');
  return dir;
}

const NEW_WORDS: WebsiteContent = {
  headline: 'Underwriting for <small> investors & lenders',
  subheadline: 'Reports in 48 hours across the Mid-Atlantic.',
  stats: [
    { value: '48hr', label: 'Turnaround' },
    { value: '6', label: 'States' },
    { value: '40+', label: 'Clients' },
    { value: '900', label: 'Reports' },
  ],
  services: DEFAULT_WEBSITE_CONTENT.services.map((s, i) => ({ ...s, title: `Service ${i + 1}` })),
  city: 'Baltimore, MD',
  address: '1 Harbor Way, Baltimore, MD 21202',
  legal_entity: 'Harbor Diligence LLC',
};

let owner: string;
let staff: string;
const apps = { a: createTestApp(database, { SITE_NAME: 'Harbor Diligence' }, { clientDir: clientDir() }), b: createTestApp(database, { SITE_NAME: 'Harbor Diligence' }, { clientDir: clientDir() }) };
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, website_settings, audit_log cascade`);
  await ensureAdmin(database.db, 'owner@example.com', 'owner-password');
  await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'staff');
  owner = await signIn(apps.a.json, 'owner@example.com', 'owner-password');
  staff = await signIn(apps.a.json, 'staff@example.com', 'staff-password');
});

const page = async (app: (typeof apps)['a'], p = '/') => (await app.app.request(p)).text();
const as = async <T>(cookie: string, method: string, body?: unknown) => {
  const res = await apps.a.json(method, '/api/website', body, { cookie });
  return { status: res.status, body: (await res.json()) as T };
};

describe('Settings → Website', () => {
  it('serves the defaults (the site name as the legal name, this year) until words are saved', async () => {
    const got = await as<WebsiteResponse>(owner, 'GET');
    expect(got.body).toEqual({ ...DEFAULT_WEBSITE_CONTENT, legal_entity: 'Harbor Diligence', updated_at: null });
    const html = await page(apps.a);
    expect(html).toContain(`<h1>${DEFAULT_WEBSITE_CONTENT.headline}</h1>`);
    expect(html).toContain(`© ${new Date().getFullYear()} Harbor Diligence`);
    expect(await page(apps.a, '/terms')).toContain('between you and Harbor Diligence, 123 Main Street');
  });

  it('puts saved words live at once in this process, escaped, in the page and in the JSON the browser hydrates from, and in another process within seconds', async () => {
    await page(apps.b); // process b has served its pages with the old words
    const saved = await as<WebsiteResponse>(owner, 'PUT', NEW_WORDS);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ...NEW_WORDS, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const html = await page(apps.a);
    expect(html).toContain('<h1>Underwriting for &lt;small&gt; investors &amp; lenders</h1>');
    expect(html).toContain('<li>900 Reports</li>');
    expect(html).toContain('<h3>Service 1</h3>');
    expect(html).toContain('<span>Baltimore, MD</span>');
    const json = JSON.parse(/id="site-config">(.*?)<\/script>/.exec(html)![1]!) as { website: WebsiteContent; year: string };
    expect(json.website).toEqual(NEW_WORDS);
    expect(json.year).toBe(String(new Date().getFullYear()));
    expect(await page(apps.a, '/terms')).toContain('between you and Harbor Diligence LLC, 1 Harbor Way, Baltimore, MD 21202');

    // Process b notices on a page request (without delaying it) and serves the new words soon after.
    const deadline = Date.now() + 10_000;
    while (!(await page(apps.b)).includes('<span>Baltimore, MD</span>')) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }

    const [entry] = await rowsOf<{ action: string; target_id: string; details: { changes: Record<string, unknown> } }>(database.db, sql`select action, target_id, details from audit_log where target_id = 'website'`);
    expect(entry).toMatchObject({ action: 'settings_changed', target_id: 'website' });
    expect(Object.keys(entry!.details.changes).sort()).toEqual(['address', 'city', 'headline', 'legal_entity', 'services', 'stats', 'subheadline']);
  });

  it('refuses bad words with a message per field and keeps what was live', async () => {
    await as(owner, 'PUT', NEW_WORDS);
    const bad = await as<ErrorResponse>(owner, 'PUT', { ...NEW_WORDS, headline: '   ', stats: NEW_WORDS.stats.slice(1), services: [{ title: 'x'.repeat(81), text: 'ok' }, ...NEW_WORDS.services.slice(1)], legal_entity: 'bad\u0000' });
    expect(bad.status).toBe(400);
    expect((bad.body as ErrorResponse & { error: { fields: Record<string, string> } }).error.fields).toMatchObject({
      headline: 'Headline is required',
      stats: 'Give all 4 figures',
      services: 'Title must be at most 80 characters',
      legal_entity: 'Contains a character that is not allowed',
    });
    expect((await as<WebsiteResponse>(owner, 'GET')).body.headline).toBe(NEW_WORDS.headline);
    expect(await page(apps.a)).toContain('<span>Baltimore, MD</span>');
  });

  it('is for owners: staff are refused, and signed-out visitors too', async () => {
    expect((await as(staff, 'GET')).status).toBe(403);
    expect((await as(staff, 'PUT', NEW_WORDS)).status).toBe(403);
    expect((await apps.a.json('GET', '/api/website')).status).toBe(401);
  });
});
