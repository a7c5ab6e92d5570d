import { expect, test } from '../fixtures.ts';
import { startOwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * A first run on a server of its own: the set-up link the log prints creates the first owner,
 * once; a proxy the server does not trust is flagged to owners.
 */

test('first run: the log prints a set-up link, and it creates the first owner; a proxy it does not trust is flagged to owners', async ({
  page,
}) => {
  // A server of its own to start, then a whole first run.
  test.setTimeout(SLOW.serverStart);
  // TRUST_PROXY off, as a first install behind a proxy would be.
  const server = await startOwnServer({ TRUST_PROXY: '0' });
  try {
    const line = await server.waitForLog(/"event":"first_run"/);
    const link = (JSON.parse(line) as { setupUrl: string }).setupUrl;
    expect(link).toMatch(new RegExp(`^${server.baseURL}/setup/[A-Za-z0-9_-]{43}$`));

    await page.goto(`${server.baseURL}/login`);
    await expect(page.getByRole('status').filter({ hasText: 'No admin account exists yet' })).toContainText('set-up link');

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Set up the CRM' })).toBeVisible();
    // A name is asked for first.
    await page.getByLabel('Email').fill('founder@example.com');
    await page.getByLabel('Password', { exact: true }).fill('founder-password');
    await page.getByLabel('Confirm password').fill('founder-password');
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await expect(page.getByLabel('Your name')).toHaveAccessibleDescription('Name is required');
    await expect(page.getByLabel('Your name')).toBeFocused();
    await page.getByLabel('Your name').fill('Fran Founder');
    await page.getByLabel('Password', { exact: true }).fill('founder-password');
    await page.getByLabel('Confirm password').fill('founder-password');
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
    // An owner: Settings is there, with the team.
    await page.goto(`${server.baseURL}/dashboard/settings/team`);
    // By name, with the email under it.
    await expect(page.getByTestId('team-member').filter({ hasText: 'founder@example.com' })).toContainText('Fran FounderYou');

    // This browser's requests carry X-Forwarded-For (the suite's fixture), as through a proxy that
    // TRUST_PROXY does not trust: one warning in the log, however many requests, and a banner for owners.
    await server.waitForLog(/"code":"untrusted_proxy"/);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Server set-up' })).toContainText('TRUST_PROXY does not trust it');
    expect(server.log.filter((l) => l.includes('"code":"untrusted_proxy"'))).toHaveLength(1);

    // Used: the link works no more, even for someone else.
    const again = await page.context().browser()!.newContext();
    const other = await again.newPage();
    await other.goto(link);
    await expect(other.getByRole('alert')).toContainText('This set-up link is not valid');
    await again.close();
  } finally {
    await server.stop();
  }
});
