import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ErrorResponse } from '#shared/schemas/error';
import { DEFAULT_WEBSITE_CONTENT, type WebsiteContent, type WebsiteResponse } from '#shared/schemas/website';
import { defaultWebsiteContent } from '#shared/website-content';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { tempDir } from '../test/process.ts';

const database = useTestDatabase();

const BUILT_AT = new Date('2020-01-02T03:04:05Z');
const stat = (i: number) => `%%IF_W_STAT${i}%%<li>%%W_STAT${i}_VALUE%% %%W_STAT${i}_LABEL%%</li>%%FI_W_STAT${i}%%`;

/** A built client in miniature: pages with the prerender's placeholder tokens and optional parts, as scripts/prerender.ts writes them. */
function clientDir() {
  const dir = tempDir('website-client');
  mkdirSync(path.join(dir, 'terms'));
  mkdirSync(path.join(dir, 'booking'));
  const head =
    '<title>%%SITE_NAME%% | %%W_PAGE_TITLE%%</title><meta name="description" content="%%W_META_DESCRIPTION%%" />' +
    '<meta property="og:title" content="%%SITE_NAME%% | %%W_PAGE_TITLE%%" /><meta property="og:description" content="%%W_META_DESCRIPTION%%" /><meta property="og:site_name" content="%%SITE_NAME%%" />';
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><head>${head}</head><p class="badge">%%W_HERO_BADGE%%</p><h1>%%W_HEADLINE%%</h1><p>%%W_SUBHEADLINE%%</p><li>%%W_HIGHLIGHT2%%</li>` +
      `<ul class="stats">${[0, 1, 2, 3].map(stat).join('')}</ul><h3>%%W_SERVICE0_TITLE%%</h3><p>%%W_SERVICES_INTRO%%</p>` +
      '<p>%%W_ABOUT_INTRO%%</p><li>%%W_ABOUT_POINT1%%</li><p>%%W_STEPS_INTRO%%</p><p>%%W_STEP1%%</p><h2>Why Choose %%SITE_NAME%%</h2><h3>%%W_REASON2_TITLE%%</h3><p>%%W_REASON2_TEXT%%</p>' +
      '<p>%%W_CONTACT_INTRO%%</p><p>%%W_FORM_NOTE%%</p><a href="mailto:%%SITE_EMAIL%%">%%SITE_EMAIL%%</a><a href="tel:%%SITE_PHONE_TEL%%">%%SITE_PHONE%%</a>' +
      '<span>%%W_CITY%%</span><footer><p class="tagline">%%W_TAGLINE%%</p>© %%YEAR%% %%SITE_NAME%%</footer><script type="application/json" id="site-config">%%SITE_CONFIG_JSON%%</script>',
  );
  writeFileSync(
    path.join(dir, 'terms/index.html'),
    '<!doctype html><title>Terms of Service | %%SITE_NAME%%</title><h1>Terms of Service</h1><p>between you and %%W_ENTITY%%, %%W_ADDRESS%%</p>',
  );
  writeFileSync(path.join(dir, 'booking/index.html'), '<!doctype html><meta name="robots" content="noindex" /><h1>Your free call</h1>');
  writeFileSync(path.join(dir, '404.html'), '<!doctype html><meta name="robots" content="noindex" /><h1>Page Not Found</h1>');
  writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\nDisallow: /dashboard\n');
  for (const file of ['index.html', 'terms/index.html', 'booking/index.html', '404.html'])
    utimesSync(path.join(dir, file), BUILT_AT, BUILT_AT);
  return dir;
}

const ENV = {
  SITE_NAME: 'Harbor Diligence',
  SITE_EMAIL: 'hello@harbor.test',
  SITE_PHONE: '(410) 555-0199',
  PUBLIC_URL: 'https://www.harbor.test',
};
const DEFAULTS = defaultWebsiteContent('Harbor Diligence', { email: 'hello@harbor.test', phone: '(410) 555-0199' });

const NEW_WORDS: WebsiteContent = {
  ...DEFAULTS,
  site_name: 'Chesapeake Underwriting',
  email: 'desk@chesapeake.test',
  phone: '+1 443 555 0142',
  page_title: 'Mid-Atlantic acquisition diligence',
  meta_description: 'Underwriting in 48 hours for investors in Maryland, Virginia and Delaware.',
  hero_badge: 'Two deals analysed free',
  headline: 'Underwriting for <small> investors & lenders',
  subheadline: 'Reports in 48 hours across the Mid-Atlantic.',
  highlights: ['Reports in 48 hours', 'Custom investor reports', 'Two deals analysed free'],
  stats: [
    { value: '48hr', label: 'Turnaround' },
    { value: '6', label: 'States' },
    { value: '40+', label: 'Clients' },
    { value: '900', label: 'Reports' },
  ],
  services_intro: 'Multifamily and commercial only.',
  services: DEFAULT_WEBSITE_CONTENT.services.map((s, i) => ({ ...s, title: `Service ${i + 1}` })),
  about_intro: 'A Baltimore team of six analysts.',
  about_points: ['Over 40 active clients.', 'Headquartered in Baltimore, with local experts in 6 states.', 'Every report reviewed twice.'],
  steps_intro: 'Three steps, two days.',
  steps: ['Send us the deal.', 'Within 48 hours you get the report.', 'Close.'],
  why_intro: 'Depth first.',
  reasons: DEFAULT_WEBSITE_CONTENT.reasons.map((r, i) =>
    i === 2 ? { title: 'Six States', text: 'Maryland, Virginia, Delaware, Pennsylvania, West Virginia and DC.' } : r,
  ),
  contact_intro: 'We answer within two business days.',
  form_note: 'Two deals analysed free.',
  tagline: 'Acquisition diligence for the Mid-Atlantic, in 48 hours.',
  city: 'Baltimore, MD',
  address: '1 Harbor Way, Baltimore, MD 21202',
  legal_entity: 'Harbor Diligence LLC',
};

let owner: string;
let staff: string;
const apps = { a: createTestApp(database, ENV, { clientDir: clientDir() }), b: createTestApp(database, ENV, { clientDir: clientDir() }) };
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, website_settings, audit_log cascade`);
  await ensureAdmin(database.db, 'owner@example.com', 'owner-password');
  await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'staff');
  owner = await signIn(apps.a.json, 'owner@example.com', 'owner-password');
  staff = await signIn(apps.a.json, 'staff@example.com', 'staff-password');
});

const page = async (app: (typeof apps)['a'], p = '/') => (await app.app.request(`https://www.harbor.test${p}`)).text();
const as = async <T>(cookie: string, method: string, body?: unknown) => {
  const res = await apps.a.json(method, '/api/website', body, { cookie });
  return { status: res.status, body: (await res.json()) as T };
};
const fieldsOf = (body: unknown) => (body as ErrorResponse & { error: { fields: Record<string, string> } }).error.fields;
const statItems = (html: string) => [.../<ul class="stats">(.*?)<\/ul>/.exec(html)![1]!.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]);

describe('Settings → Website', () => {
  it('serves the defaults until words are saved: the brand, email and phone from SITE_NAME, SITE_EMAIL and SITE_PHONE, the site name as the legal name, this year', async () => {
    const got = await as<WebsiteResponse>(owner, 'GET');
    expect(got.body).toEqual({ ...DEFAULTS, updated_at: null });
    expect(got.body).toMatchObject({
      site_name: 'Harbor Diligence',
      email: 'hello@harbor.test',
      phone: '(410) 555-0199',
      legal_entity: 'Harbor Diligence',
      stats: DEFAULT_WEBSITE_CONTENT.stats,
    });
    const html = await page(apps.a);
    expect(html).toContain(`<h1>${DEFAULT_WEBSITE_CONTENT.headline}</h1>`);
    expect(html).toContain('<title>Harbor Diligence | Real Estate Due Diligence &amp; Underwriting</title>');
    expect(html).toContain('<a href="tel:4105550199">(410) 555-0199</a>');
    expect(html).toContain('<li>Headquartered in Frederick, MD, with local experts across all 50 states.</li>');
    expect(statItems(html)).toEqual(['24hr Turnaround', '50 States Coverage', '100+ Active Clients', '5,000+ Reports Delivered']);
    expect(html).toContain(`© ${new Date().getFullYear()} Harbor Diligence`);
    expect(html).not.toContain('%%');
    expect(await page(apps.a, '/terms')).toContain('between you and Harbor Diligence, 123 Main Street');
  });

  it('puts every claim, the brand, the contact and the head live at once in this process, escaped, in the page and in the JSON the browser hydrates from, and in another process within seconds', async () => {
    await page(apps.b); // process b has served its pages with the old words
    const saved = await as<WebsiteResponse>(owner, 'PUT', NEW_WORDS);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ...NEW_WORDS, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const html = await page(apps.a);
    for (const part of [
      '<title>Chesapeake Underwriting | Mid-Atlantic acquisition diligence</title>',
      '<meta name="description" content="Underwriting in 48 hours for investors in Maryland, Virginia and Delaware." />',
      '<meta property="og:title" content="Chesapeake Underwriting | Mid-Atlantic acquisition diligence" />',
      '<meta property="og:description" content="Underwriting in 48 hours for investors in Maryland, Virginia and Delaware." />',
      '<meta property="og:site_name" content="Chesapeake Underwriting" />',
      '<p class="badge">Two deals analysed free</p>',
      '<h1>Underwriting for &lt;small&gt; investors &amp; lenders</h1>',
      '<li>Two deals analysed free</li>',
      '<h3>Service 1</h3>',
      '<p>Multifamily and commercial only.</p>',
      '<p>A Baltimore team of six analysts.</p>',
      '<li>Headquartered in Baltimore, with local experts in 6 states.</li>',
      '<p>Three steps, two days.</p>',
      '<p>Within 48 hours you get the report.</p>',
      '<h2>Why Choose Chesapeake Underwriting</h2>',
      '<h3>Six States</h3>',
      '<p>We answer within two business days.</p>',
      '<p>Two deals analysed free.</p>',
      '<a href="mailto:desk@chesapeake.test">desk@chesapeake.test</a>',
      '<a href="tel:+14435550142">+1 443 555 0142</a>',
      '<span>Baltimore, MD</span>',
      '<p class="tagline">Acquisition diligence for the Mid-Atlantic, in 48 hours.</p>',
      `© ${new Date().getFullYear()} Chesapeake Underwriting`,
    ]) {
      expect(html).toContain(part);
    }
    expect(html.split('<script')[0]).not.toMatch(/50 states|All 50 States|Harbor Diligence/);
    expect(statItems(html)).toEqual(['48hr Turnaround', '6 States', '40+ Clients', '900 Reports']);
    const json = JSON.parse(/id="site-config">(.*?)<\/script>/.exec(html)![1]!) as {
      name: string;
      email: string;
      phone: string;
      phoneTel: string;
      website: WebsiteContent;
      year: string;
    };
    expect(json).toMatchObject({
      name: 'Chesapeake Underwriting',
      email: 'desk@chesapeake.test',
      phone: '+1 443 555 0142',
      phoneTel: '+14435550142',
      website: NEW_WORDS,
    });
    expect(json.year).toBe(String(new Date().getFullYear()));
    const terms = await page(apps.a, '/terms');
    expect(terms).toContain('<title>Terms of Service | Chesapeake Underwriting</title>');
    expect(terms).toContain('between you and Harbor Diligence LLC, 1 Harbor Way, Baltimore, MD 21202');

    // Process b notices on a page request (without delaying it) and serves the new words soon after.
    const deadline = Date.now() + 10_000;
    while (!(await page(apps.b)).includes('<span>Baltimore, MD</span>')) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await page(apps.b)).toContain('<title>Chesapeake Underwriting | Mid-Atlantic acquisition diligence</title>');

    const [entry] = await rowsOf<{ action: string; target_id: string; details: { changes: Record<string, unknown> } }>(
      database.db,
      sql`select action, target_id, details from audit_log where target_id = 'website'`,
    );
    expect(entry).toMatchObject({ action: 'settings_changed', target_id: 'website' });
    expect(Object.keys(entry!.details.changes)).toEqual(
      expect.arrayContaining(['site_name', 'email', 'phone', 'page_title', 'meta_description', 'tagline', 'stats', 'reasons', 'steps']),
    );
  });

  it('shows one to four figures: removed ones leave the page, and none or five are refused', async () => {
    const one = await as<WebsiteResponse>(owner, 'PUT', { ...NEW_WORDS, stats: [{ value: '6', label: 'States' }] });
    expect(one.status).toBe(200);
    let html = await page(apps.a);
    expect(statItems(html)).toEqual(['6 States']);
    expect(html).not.toContain('%%');
    expect(JSON.parse(/id="site-config">(.*?)<\/script>/.exec(html)![1]!)).toMatchObject({
      website: { stats: [{ value: '6', label: 'States' }] },
    });

    expect((await as(owner, 'PUT', { ...NEW_WORDS, stats: NEW_WORDS.stats.slice(0, 3) })).status).toBe(200);
    html = await page(apps.a);
    expect(statItems(html)).toEqual(['48hr Turnaround', '6 States', '40+ Clients']);

    const none = await as<ErrorResponse>(owner, 'PUT', { ...NEW_WORDS, stats: [] });
    expect(none.status).toBe(400);
    expect(fieldsOf(none.body)).toEqual({ stats: 'Keep at least one figure' });
    const five = await as<ErrorResponse>(owner, 'PUT', { ...NEW_WORDS, stats: [...NEW_WORDS.stats, { value: '1', label: 'More' }] });
    expect(five.status).toBe(400);
    expect(fieldsOf(five.body)).toEqual({ stats: 'At most 4 figures' });
    expect(statItems(await page(apps.a))).toEqual(['48hr Turnaround', '6 States', '40+ Clients']);
  });

  it('refuses bad words with a message per field and keeps what was live', async () => {
    await as(owner, 'PUT', NEW_WORDS);
    const bad = await as<ErrorResponse>(owner, 'PUT', {
      ...NEW_WORDS,
      site_name: ' ',
      email: 'desk@chesapeake',
      phone: 'call us',
      page_title: 'x'.repeat(121),
      meta_description: '',
      headline: '   ',
      highlights: NEW_WORDS.highlights.slice(1),
      services: [{ title: 'x'.repeat(81), text: 'ok' }, ...NEW_WORDS.services.slice(1)],
      reasons: NEW_WORDS.reasons.map((r, i) => (i === 3 ? { ...r, text: 'y'.repeat(301) } : r)),
      tagline: 'x'.repeat(201),
      legal_entity: 'bad\u0000',
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual({
      site_name: 'Brand name is required',
      email: 'Invalid email address',
      phone: 'Invalid phone number: use 7 to 15 digits, like (301) 555-0100',
      page_title: 'Page title must be at most 120 characters',
      meta_description: 'Description is required',
      headline: 'Headline is required',
      highlights: 'Give all 3 highlights',
      services: 'Title must be at most 80 characters',
      reasons: 'Description must be at most 300 characters',
      tagline: 'Tagline must be at most 200 characters',
      legal_entity: 'Contains a character that is not allowed',
    });
    expect(fieldsOf((await as<ErrorResponse>(owner, 'PUT', { ...NEW_WORDS, phone: '555 01' })).body)).toEqual({
      phone: 'Invalid phone number: use 7 to 15 digits, like (301) 555-0100',
    });
    expect(fieldsOf((await as<ErrorResponse>(owner, 'PUT', { ...NEW_WORDS, phone: '+1 (443) 555-0142-9999999' })).body)).toEqual({
      phone: 'Invalid phone number: use 7 to 15 digits, like (301) 555-0100',
    });
    expect((await as<WebsiteResponse>(owner, 'GET')).body).toEqual({ ...NEW_WORDS, updated_at: expect.any(String) });
    const html = await page(apps.a);
    expect(html).toContain('<span>Baltimore, MD</span>');
    expect(html).toContain('<title>Chesapeake Underwriting | Mid-Atlantic acquisition diligence</title>');
  });

  it('keeps words saved before the brand, contact and claims were editable, and gives the new parts their defaults', async () => {
    const { headline, subheadline, stats, services, address, legal_entity } = NEW_WORDS;
    const before = { headline, subheadline, stats, services, city: 'Annapolis, MD', address, legal_entity };
    await execute(
      database.db,
      sql`insert into website_settings (id, content, updated_at) values (1, ${JSON.stringify(before)}::jsonb, now())`,
    );
    const got = (await as<WebsiteResponse>(owner, 'GET')).body;
    expect(got).toMatchObject({
      ...before,
      site_name: 'Harbor Diligence',
      email: 'hello@harbor.test',
      phone: '(410) 555-0199',
      tagline: DEFAULT_WEBSITE_CONTENT.tagline,
    });
    expect(got.about_points[1]).toBe('Headquartered in Annapolis, MD, with local experts across all 50 states.');
    expect(await page(apps.a)).toContain('<h1>Underwriting for &lt;small&gt; investors &amp; lenders</h1>');
  });

  it('lists the indexable pages in the sitemap on the site’s origin, dated by the last save, and robots.txt points to it', async () => {
    // A process of its own, which has served nothing yet (the others remember the other tests' saves).
    const fresh = createTestApp(database, ENV, { clientDir: clientDir() });
    const sitemap = async () => {
      const res = await fresh.app.request('https://www.harbor.test/sitemap.xml');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=UTF-8');
      return res.text();
    };
    const first = await sitemap();
    expect([...first.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]).sort()).toEqual([
      'https://www.harbor.test/',
      'https://www.harbor.test/terms',
    ]);
    expect([...first.matchAll(/<lastmod>(.*?)<\/lastmod>/g)].map((m) => m[1])).toEqual(['2020-01-02T03:04:05Z', '2020-01-02T03:04:05Z']);

    const res = await fresh.json('PUT', '/api/website', NEW_WORDS, { cookie: owner });
    const saved = { body: (await res.json()) as WebsiteResponse };
    const lastmod = new Date(saved.body.updated_at!).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect([...(await sitemap()).matchAll(/<lastmod>(.*?)<\/lastmod>/g)].map((m) => m[1])).toEqual([lastmod, lastmod]);

    const robots = await (await fresh.app.request('https://www.harbor.test/robots.txt')).text();
    expect(robots).toBe('User-agent: *\nAllow: /\nDisallow: /dashboard\nSitemap: https://www.harbor.test/sitemap.xml\n');
  });

  it('is for owners: staff are refused, and signed-out visitors too', async () => {
    expect((await as(staff, 'GET')).status).toBe(403);
    expect((await as(staff, 'PUT', NEW_WORDS)).status).toBe(403);
    expect((await apps.a.json('GET', '/api/website')).status).toBe(401);
  });
});
