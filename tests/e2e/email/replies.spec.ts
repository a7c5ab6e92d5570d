import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { type Dovecot, startDovecot } from '../../../src/server/test/dovecot.ts';
import { expect, test } from '../fixtures.ts';
import { signInOn, startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/**
 * Replies read from a real IMAP server (Dovecot, from Debian's package) on a server of this
 * spec's own: a reply to a message written on the lead's page shows on that page within
 * seconds, live, as text (nothing in it runs), with its file to download.
 */
const OWNER = { email: 'reply-owner@example.com', password: 'reply-owner-password' };
let dovecot: Dovecot;
let server: OwnServer;
// Each test waits on the reader's looks over real IMAP, several times (SLOW).
test.describe.configure({ timeout: SLOW.longerTest });
test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  dovecot = await startDovecot(['replies']);
  server = await startOwnServer({
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    ADMIN_NAME: 'Rita Owner',
    MAIL_REPLY_TO: 'replies@keystone.test',
    IMAP_URL: dovecot.urlOf('replies'),
    IMAP_POLL_SECONDS: '1',
  });
});
// A failure says what the server and Dovecot said (the reader logs a look that failed).
// eslint-disable-next-line no-empty-pattern -- Playwright passes the test's info second, after the fixtures
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  await testInfo.attach('server log', { body: server?.log.slice(-60).join('\n') ?? '', contentType: 'text/plain' });
  await testInfo.attach('dovecot log', { body: dovecot?.output().slice(-5000) ?? '', contentType: 'text/plain' });
  console.log(`server log:\n${server?.log.slice(-60).join('\n')}\ndovecot:\n${dovecot?.output().slice(-3000)}`);
});
test.afterAll(async () => {
  await server?.stop();
  await dovecot?.stop();
});

const signIn = (page: Page) => signInOn(page, server, OWNER);

test('a reply to a message written on the lead’s page shows on that page within seconds, as text, with its file', async ({ page }) => {
  // Its own address: the suite's mail sink also holds what this spec sent in the other project's run.
  const rhea = `rhea.${randomUUID().slice(0, 8)}@example.com`;
  await signIn(page);
  const created = await page.request.post(`${server.baseURL}/api/leads`, {
    data: { full_name: 'Rhea Replier', email: rhea, phone: '(410) 555-0144', property_types: ['land'] },
    headers: { origin: server.baseURL },
  });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`${server.baseURL}/dashboard/leads/${id}`);
  await page.getByRole('button', { name: 'Send email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Email Rhea Replier' });
  await dialog.getByLabel('Subject').fill('Your inspection');
  await dialog.getByLabel('Message').fill('Does Thursday work?');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Email to ${rhea} is on its way` })).toBeVisible();

  // The message as it went out: its Message-ID and the lead's reply address (the mail sink keeps it).
  const sink = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
  let sent: { messageId: string; replyTo: string } | undefined;
  await expect
    .poll(
      async () => {
        const all = (await (await page.request.get(`${sink}/messages`)).json()) as {
          to: string[];
          subject: string;
          messageId: string;
          replyTo: string;
        }[];
        sent = all.find((m) => m.to.includes(rhea) && m.subject === 'Your inspection');
        return sent !== undefined;
      },
      { timeout: SLOW.mail },
    )
    .toBe(true);
  const replyAddress = /<([^>]+)>/.exec(sent!.replyTo)![1]!;

  dovecot.deliver(
    'replies',
    [
      `From: Rhea Replier <${rhea}>`,
      `To: ${replyAddress}`,
      'Subject: Re: Your inspection',
      `In-Reply-To: ${sent!.messageId}`,
      `Message-ID: <reply-${rhea}>`,
      'Content-Type: multipart/mixed; boundary="x1"',
      '',
      '--x1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Thursday works.<script>window.__ran = 1</script><img src=x onerror="window.__ran = 2"> <a href="javascript:window.__ran=3">here</a></p>',
      '--x1',
      'Content-Type: application/pdf; name="survey.pdf"',
      'Content-Disposition: attachment; filename="survey.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4 survey').toString('base64'),
      '--x1--',
      '',
    ].join('\r\n'),
  );

  // Live: no reload.
  const reply = page
    .getByRole('list', { name: 'Timeline, newest first' })
    .getByRole('listitem')
    .filter({ hasText: 'Rhea Replier replied: Re: Your inspection' });
  await expect(reply).toBeVisible({ timeout: SLOW.imap });
  await expect(reply).toContainText('Thursday works.');
  await expect(reply.getByRole('link', { name: /survey\.pdf/ })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined();
  await expect(reply.locator('script, img')).toHaveCount(0);
  const download = page.waitForEvent('download');
  await reply.getByRole('link', { name: /survey\.pdf/ }).click();
  expect((await download).suggestedFilename()).toBe('survey.pdf');

  // Reply answers in the same thread: to its sender, "Re:" its subject, In-Reply-To its Message-ID.
  await reply.getByRole('button', { name: `Reply to Re: Your inspection, from ${rhea}` }).click();
  const answer = page.getByRole('dialog', { name: 'Reply to Rhea Replier' });
  await expect(answer.getByLabel('To')).toHaveValue(rhea);
  await expect(answer.getByLabel('Subject')).toHaveValue('Re: Your inspection');
  await answer.getByLabel('Message').fill('Thursday at 10 then.');
  await answer.getByRole('button', { name: 'Send' }).click();
  await expect(answer).toBeHidden();
  await expect
    .poll(
      async () => {
        const all = (await (await page.request.get(`${sink}/messages`)).json()) as {
          to: string;
          subject: string;
          inReplyTo: string | null;
        }[];
        return all.find((m) => m.to.includes(rhea) && m.subject === 'Re: Your inspection')?.inReplyTo;
      },
      { timeout: SLOW.mail },
    )
    .toBe(`<reply-${rhea}>`);

  // One conversation on the timeline: our answer on top, the two before it behind "Show 2 earlier messages".
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
  const conversation = timeline.getByRole('listitem').filter({ hasText: 'emailed: Re: Your inspection' });
  await expect(conversation).toContainText('Thursday at 10 then.');
  await expect(timeline.getByRole('listitem').filter({ hasText: 'replied: Re: Your inspection' })).toHaveCount(0);
  const earlier = conversation.getByRole('button', { name: 'Show 2 earlier messages' });
  await earlier.click();
  await expect(conversation.getByRole('button', { name: 'Hide earlier messages' })).toHaveAttribute('aria-expanded', 'true');
  // Its messages (an attachment list inside one has items of its own).
  const messages = conversation.getByRole('list', { name: 'Earlier messages in this conversation, newest first' }).locator(':scope > li');
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText('Rhea Replier replied: Re: Your inspection');
  await expect(messages.nth(1)).toContainText('emailed: Your inspection');
  await expect(messages.nth(1)).toContainText('Does Thursday work?');
  // The open conversation passes axe like every page.
  const axe = await new AxeBuilder({ page })
    .include('#timeline-heading + ol')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // Reply on any message of it: our first one, answered to whom it went.
  await messages
    .nth(1)
    .getByRole('button', { name: `Reply to Your inspection, to ${rhea}` })
    .click();
  const followUp = page.getByRole('dialog', { name: 'Reply to Rhea Replier' });
  await expect(followUp.getByLabel('To')).toHaveValue(rhea);
  await expect(followUp.getByLabel('Subject')).toHaveValue('Re: Your inspection');
  await followUp.getByRole('button', { name: 'Cancel' }).click();
  await expect(followUp).toBeHidden();

  // The owner was told (the bell).
  await page.getByRole('button', { name: /^Notifications/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' }).getByRole('link', { name: /Rhea Replier replied/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // They ask us to stop: the page offers Do not email, which staff confirm.
  dovecot.deliver(
    'replies',
    [`From: Rhea Replier <${rhea}>`, `To: ${replyAddress}`, 'Subject: Re: Your inspection', '', 'Please stop emailing me.', ''].join(
      '\r\n',
    ),
  );
  const asked = page.getByRole('note', { name: 'Asked not to be emailed' });
  await expect(asked).toContainText('seems to ask us to stop writing', { timeout: SLOW.imap });
  await asked.getByRole('button', { name: 'Mark Do not email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Marked Do not email' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Do not email' })).toBeChecked();
  await expect(asked).toBeHidden();
});

test('mail that matches no lead waits in the Inbox: made into a lead, added to a lead’s page, or dismissed', async ({ page }) => {
  await signIn(page);
  // Addresses and Message-IDs of the test's own (the reader takes a Message-ID once).
  const tag = randomUUID().slice(0, 8);
  const address = (n: number) => `sol${n}.${tag}@example.org`;
  const stranger = (n: number, subject: string) =>
    dovecot.deliver(
      'replies',
      [
        `From: Sol Stranger${n} <${address(n)}>`,
        'To: hello@keystone.test',
        `Subject: ${subject}`,
        `Message-ID: <inbox-${n}.${tag}@example.org>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'We are buying a fourplex in Richmond and need a review.',
        '',
      ].join('\r\n'),
    );
  stranger(1, 'Fourplex review');
  stranger(2, 'About my duplex');
  stranger(3, 'Buy cheap watches');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Inbox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  const waiting = page.getByRole('list', { name: 'Waiting mail' });
  await expect(waiting.getByRole('article')).toHaveCount(3, { timeout: SLOW.imap });

  // A new inquiry becomes a lead: name and address filled from the mail; the message goes on its page.
  const fourplex = waiting.getByRole('article', { name: 'Fourplex review' });
  await fourplex.getByRole('button', { name: 'Create lead' }).click();
  const add = page.getByRole('dialog', { name: 'Add Lead' });
  await expect(add.getByLabel('Full Name')).toHaveValue('Sol Stranger1');
  await expect(add.getByLabel('Email')).toHaveValue(address(1));
  await add.getByLabel('Phone').fill('(804) 555-0101');
  await add.getByLabel('Property Type').selectOption({ index: 1 });
  await add.getByRole('button', { name: 'Add Lead' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Lead added successfully' })).toBeVisible();
  await expect(waiting.getByRole('article')).toHaveCount(2);

  // Another is added to that lead's page.
  await waiting.getByRole('article', { name: 'About my duplex' }).getByRole('button', { name: 'Add to a lead' }).click();
  const attach = page.getByRole('dialog', { name: 'Add to a lead' });
  await attach.getByLabel('Find a lead').fill(address(1));
  await attach.getByRole('button', { name: 'Add to Sol Stranger1' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to Sol Stranger1’s page' })).toBeVisible();

  // Spam is dismissed, and can be brought back from Dismissed.
  await waiting.getByRole('article', { name: 'Buy cheap watches' }).getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('Nothing waiting. Replies that match a lead go straight to its page.')).toBeVisible();
  await page.getByRole('button', { name: 'Dismissed' }).click();
  await expect(page.getByRole('list', { name: 'Dismissed mail' }).getByRole('article', { name: 'Buy cheap watches' })).toBeVisible();

  // The lead's page has both messages.
  await page.goto(`${server.baseURL}/dashboard/leads?search=${encodeURIComponent(address(1))}`);
  await page.getByRole('link', { name: 'Sol Stranger1' }).first().click();
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Sol Stranger1 wrote: Fourplex review' })).toBeVisible();
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Sol Stranger2 wrote: About my duplex' })).toBeVisible();
});

test('a stranger in the lead’s conversation, or a forged sender, is marked on the page and in the bell', async ({ page }) => {
  const lead = `vera.${randomUUID().slice(0, 8)}@example.com`;
  const tag = randomUUID().slice(0, 8);
  await signIn(page);
  const created = await page.request.post(`${server.baseURL}/api/leads`, {
    data: { full_name: 'Vera Vouched', email: lead, phone: '(410) 555-0145', property_types: ['land'] },
    headers: { origin: server.baseURL },
  });
  const { id } = (await created.json()) as { id: string };
  const wrote = await page.request.post(`${server.baseURL}/api/leads/${id}/emails`, {
    data: { subject: 'Your survey', body: 'Here it is.' },
    headers: { origin: server.baseURL },
  });
  expect(wrote.status()).toBe(201);
  const sink = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
  let messageId: string | undefined;
  await expect
    .poll(
      async () => {
        const all = (await (await page.request.get(`${sink}/messages`)).json()) as { to: string[]; subject: string; messageId: string }[];
        messageId = all.find((m) => m.to.includes(lead) && m.subject === 'Your survey')?.messageId;
        return messageId !== undefined;
      },
      { timeout: SLOW.mail },
    )
    .toBe(true);

  // Someone the lead forwarded our message to (or who learned its Message-ID) answers it.
  dovecot.deliver(
    'replies',
    [
      `From: Mallory <mallory.${tag}@evil.example>`,
      'To: hello@keystone.test',
      'Subject: Re: Your survey',
      `In-Reply-To: ${messageId}`,
      `Message-ID: <stranger-${tag}@evil.example>`,
      '',
      'Pay the invoice at https://evil.example/pay first.',
      '',
    ].join('\r\n'),
  );
  // The lead's address, with a pass the sender wrote itself (this server has no IMAP_AUTHSERV_ID).
  dovecot.deliver(
    'replies',
    [
      'Authentication-Results: mx.keystone.test; dmarc=pass header.from=example.com',
      `From: Vera Vouched <${lead}>`,
      'To: hello@keystone.test',
      'Subject: New bank details',
      `Message-ID: <forged-${tag}@evil.example>`,
      '',
      'Please wire the fee to a new account.',
      '',
    ].join('\r\n'),
  );
  await page.goto(`${server.baseURL}/dashboard/leads/${id}`);
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
  const forged = timeline.getByRole('listitem').filter({ hasText: 'Vera Vouched wrote: New bank details' });
  await expect(forged).toBeVisible({ timeout: SLOW.imap });
  await expect(forged).toContainText('Sender not verified');
  // The stranger's answer is in our conversation, newest first: marked with their address.
  const conversation = timeline.getByRole('listitem').filter({ hasText: 'Re: Your survey' }).first();
  await expect(conversation).toContainText(`From someone else: mallory.${tag}@evil.example`, { timeout: SLOW.imap });
  const axe = await new AxeBuilder({ page })
    .include('#timeline-heading + ol')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await page.getByRole('button', { name: /^Notifications/ }).click();
  const bell = page.getByRole('dialog', { name: 'Notifications' });
  await expect(bell.getByRole('link', { name: `Vera Vouched replied: from someone else, mallory.${tag}@evil.example` })).toBeVisible();
  await expect(bell.getByRole('link', { name: 'Vera Vouched replied (sender not verified)' })).toBeVisible();
  await page.keyboard.press('Escape');
});
