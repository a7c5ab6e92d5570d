import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { signInOn, startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Settings → Integrations → Webhooks on a server of its own, with a real receiver: an HTTP
 * server this spec starts on 127.0.0.1 (port 0), the only host:port the server may send plain
 * HTTP to (OUTBOUND_ALLOW_HOSTS). The receiver verifies every request with the Standard Webhooks
 * reference library (`standardwebhooks`) and the secret the page showed, and answers 401 to one
 * that does not verify, as a real receiver would. The owner adds an endpoint by keyboard, sees
 * its secret, sends a test, gets a new lead, sees a failure (the receiver answers 500 once) in
 * the delivery log and replays it, pauses the endpoint, and deletes it after a confirmation.
 * The worker wakes every second (src/server/jobs/registry.ts); every wait is on a condition.
 */
const OWNER = { email: `webhooks.${Date.now()}@own.test`, password: 'webhooks-password-1' };

type Arrival = {
  method: string;
  path: string;
  webhookId: string;
  body: string;
  /** null: the reference library verified it with the secret the page showed. */
  verifyError: string | null;
  answered: number;
};

/** A webhook receiver on loopback: verifies with `secret`, answers 500 to the next `failNext` requests, else 204. */
function webhookReceiver() {
  const state = { arrivals: [] as Arrival[], secret: '', failNext: 0, url: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let verifyError: string | null = null;
      try {
        new Webhook(state.secret).verify(body, headers);
      } catch (error) {
        verifyError = error instanceof Error ? error.message : String(error);
      }
      const answered = verifyError ? 401 : state.failNext > 0 ? 500 : 204;
      if (answered === 500) state.failNext--;
      state.arrivals.push({ method: req.method ?? '', path: req.url ?? '', webhookId: headers['webhook-id'], body, verifyError, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 500 ? 'receiver down for a moment' : undefined);
    });
  });
  return {
    state,
    /** The arrivals whose body's `type` is `type` (and, given, whose `data.id` is `objectId`). */
    of: (type: string, objectId?: string) =>
      state.arrivals.filter((a) => {
        const body = JSON.parse(a.body) as { type: string; data: { id?: string } };
        return body.type === type && (objectId === undefined || body.data.id === objectId);
      }),
    listen: async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      state.url = `http://127.0.0.1:${port}/hook`;
      return port;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const receiver = webhookReceiver();
let server: OwnServer | undefined;
test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  const port = await receiver.listen();
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}` });
});
test.afterAll(async () => {
  await server?.stop();
  await receiver.close();
});

/** A lead made as the signed-in owner through the API (the Add lead dialog posts the same); its id. */
async function createLead(page: Page, name: string): Promise<string> {
  const res = await page.request.post(`${server!.baseURL}/api/leads`, {
    headers: { origin: server!.baseURL },
    data: {
      full_name: name,
      email: `${name.toLowerCase().replaceAll(' ', '.')}@example.com`,
      phone: '(301) 555-0142',
      property_types: ['multifamily'],
      message: 'A webhook should carry this.',
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('the owner adds a webhook by keyboard, a receiver verifies test, lead, failure and replay; pause and delete', async ({ page }) => {
  test.setTimeout(SLOW.longerTest);
  const base = server!.baseURL;
  await signInOn(page, server!, OWNER);
  await page.goto(`${base}/dashboard/settings/integrations`);
  const section = page.getByRole('region', { name: 'Webhooks' });
  await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  const form = section.getByRole('form', { name: 'Add a webhook' });
  const urlField = form.getByLabel('Endpoint URL');
  const toasts = page.getByRole('region', { name: 'Notifications' });

  // By keyboard: from the API keys form's last control, Tab reaches the endpoint URL.
  await page.getByRole('button', { name: 'Create key' }).focus();
  await page.keyboard.press('Tab');
  await expect(urlField).toBeFocused();
  // Plain HTTP to a host not allowed is refused, the reason under the field.
  await page.keyboard.type('http://example.com/hook');
  await page.keyboard.press('Enter');
  await expect(form.getByText('Use an https:// URL (plain http:// only to a host listed in OUTBOUND_ALLOW_HOSTS).')).toBeVisible();
  await expect(urlField).toHaveAttribute('aria-invalid', 'true');
  await expect(urlField).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(receiver.state.url);
  // lead.created comes checked; Space checks appointment.booked, five stops further.
  await page.keyboard.press('Tab');
  await expect(form.getByRole('checkbox', { name: 'lead.created' })).toBeFocused();
  await expect(form.getByRole('checkbox', { name: 'lead.created' })).toBeChecked();
  for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
  const booked = form.getByRole('checkbox', { name: 'appointment.booked' });
  await expect(booked).toBeFocused();
  await page.keyboard.press('Space');
  await expect(booked).toBeChecked();
  for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Add webhook' })).toBeFocused();
  await page.keyboard.press('Enter');

  // Added: the secret shown under the form, the URL field empty again, the endpoint listed (without the secret).
  await expect(toasts.getByRole('status').filter({ hasText: 'Webhook added' })).toBeVisible();
  await expect(form.getByText('Its signing secret')).toBeVisible();
  const shownSecret =
    (await form
      .locator('code')
      .filter({ hasText: /^whsec_/ })
      .textContent()) ?? '';
  expect(shownSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  // Focus stays on Add webhook (not dropped to the page), and Tab goes on to the secret's Copy.
  await expect(form.getByRole('button', { name: 'Add webhook' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Copy' })).toBeFocused();
  await expect(urlField).toHaveValue('');
  await expect(urlField).not.toHaveAttribute('aria-invalid');
  const endpoint = section.getByRole('listitem').filter({ has: page.getByText(receiver.state.url, { exact: true }) });
  await expect(endpoint).toHaveCount(1);
  await expect(endpoint).toContainText('Active');
  await expect(endpoint).toContainText('lead.created, appointment.booked');
  await expect(endpoint).not.toContainText(shownSecret);
  receiver.state.secret = shownSecret;

  // Opened again, the page keeps the secret hidden until asked; Show secret reveals the same one.
  await page.reload();
  await expect(endpoint).toHaveCount(1);
  await expect(page.getByText(shownSecret)).toHaveCount(0);
  const showSecret = endpoint.getByRole('button', { name: 'Show secret' });
  await expect(showSecret).toHaveAttribute('aria-expanded', 'false');
  await showSecret.click();
  await expect(endpoint.getByRole('button', { name: 'Hide secret' })).toHaveAttribute('aria-expanded', 'true');
  await expect(endpoint.getByText('Signing secret', { exact: true })).toBeVisible();
  await expect(endpoint.getByText(shownSecret, { exact: true })).toBeVisible();
  await endpoint.getByRole('button', { name: 'Hide secret' }).click();
  await expect(endpoint.getByText(shownSecret, { exact: true })).toHaveCount(0);

  // Send test: delivered at once, verified by the receiver, in the toast and the delivery log.
  await endpoint.getByRole('button', { name: 'Send test' }).click();
  await expect(toasts.getByRole('status').filter({ hasText: /^Test delivered \(HTTP 204, \d+ ms\)$/ })).toBeVisible();
  expect(receiver.of('webhook.test')).toHaveLength(1);
  const [testArrival] = receiver.of('webhook.test');
  expect(testArrival).toMatchObject({ method: 'POST', path: '/hook', verifyError: null, answered: 204 });
  expect(JSON.parse(testArrival!.body)).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: {} });
  const logButton = endpoint.getByRole('button', { name: 'Delivery log' });
  await expect(logButton).toHaveAttribute('aria-expanded', 'false');
  await logButton.click();
  await expect(endpoint.getByRole('button', { name: 'Hide log' })).toHaveAttribute('aria-expanded', 'true');
  const log = endpoint.getByRole('list', { name: 'Delivery log' });
  const rows = log.getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(/^webhook\.test · .+ · 204 · \d+ ms · delivered/);
  await expect(rows.first().getByRole('button', { name: 'Replay' })).toBeVisible();

  /** The log as it is now: closed and opened again (it asks the server each time it opens). */
  const reopenLog = async () => {
    await endpoint.getByRole('button', { name: 'Hide log' }).click();
    await expect(log).toHaveCount(0);
    await endpoint.getByRole('button', { name: 'Delivery log' }).click();
  };

  // A new lead arrives signed, its data the lead as GET /api/leads/{id} answers it.
  const leadId = await createLead(page, 'Webhook Lead One');
  await expect.poll(() => receiver.of('lead.created', leadId).length).toBe(1);
  const [leadArrival] = receiver.of('lead.created', leadId);
  expect(leadArrival).toMatchObject({ method: 'POST', path: '/hook', verifyError: null, answered: 204 });
  expect(leadArrival!.webhookId).not.toBe(testArrival!.webhookId);
  const lead = (await (await page.request.get(`${base}/api/leads/${leadId}`)).json()) as Record<string, unknown>;
  expect(lead).toMatchObject({ id: leadId, full_name: 'Webhook Lead One', email: 'webhook.lead.one@example.com' });
  expect(JSON.parse(leadArrival!.body)).toEqual({ type: 'lead.created', timestamp: expect.any(String), data: lead });
  await reopenLog();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(/^lead\.created · .+ · 204 · \d+ ms · delivered/);

  // The receiver answers 500 once: the failure is in the log, with the answer, the delivery pending (retried later).
  receiver.state.failNext = 1;
  const failedLeadId = await createLead(page, 'Webhook Lead Two');
  await expect.poll(() => receiver.of('lead.created', failedLeadId).length).toBe(1);
  const [failedArrival] = receiver.of('lead.created', failedLeadId);
  expect(failedArrival).toMatchObject({ verifyError: null, answered: 500 });
  await reopenLog();
  await expect(rows).toHaveCount(3);
  const failedRow = rows.filter({ hasText: /^lead\.created · .+ · 500 · \d+ ms · pending/ });
  await expect(failedRow).toHaveCount(1);
  await expect(failedRow).toContainText('HTTP 500');
  await expect(failedRow).toContainText('receiver down for a moment');

  // Replay: queued again, sent by the worker with the same webhook-id and the same bytes, delivered this time.
  const replayed = page.waitForResponse((r) => r.request().method() === 'POST' && /\/deliveries\/[^/]+\/replay$/.test(r.url()));
  const arrivalsBeforeReplay = receiver.state.arrivals.length;
  await failedRow.getByRole('button', { name: 'Replay' }).click();
  expect((await replayed).status()).toBe(202);
  await expect(toasts.getByRole('status').filter({ hasText: 'Queued again' })).toBeVisible();
  await expect
    .poll(() => receiver.state.arrivals.slice(arrivalsBeforeReplay).filter((a) => a.webhookId === failedArrival!.webhookId))
    .toEqual([{ ...failedArrival!, answered: 204 }]);
  // The newest row is the replay, delivered. (No count: the failed delivery's own retry, 15 to 30 s after it, may be there too.)
  await reopenLog();
  await expect(rows.first()).toContainText(/^lead\.created · .+ · 204 · \d+ ms · delivered/);
  await expect(rows.filter({ hasText: /^lead\.created · .+ · 500 · / })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  // Paused: shown so, and a lead made meanwhile is never sent (nothing is queued for a paused endpoint);
  // resumed, the next lead is, and the one made while paused still has not come.
  await endpoint.getByRole('button', { name: 'Pause' }).click();
  await expect(endpoint.getByText('Paused: Paused by an owner', { exact: true })).toBeVisible();
  const whilePausedId = await createLead(page, 'Webhook Lead Paused');
  await endpoint.getByRole('button', { name: 'Resume' }).click();
  await expect(endpoint.getByText('Active', { exact: true })).toBeVisible();
  const afterResumeId = await createLead(page, 'Webhook Lead Resumed');
  await expect.poll(() => receiver.of('lead.created', afterResumeId).map((a) => a.verifyError)).toEqual([null]);
  expect(receiver.of('lead.created', whilePausedId)).toEqual([]);
  expect(receiver.state.arrivals.filter((a) => a.verifyError !== null)).toEqual([]);

  // Deleted after a confirmation: Escape cancels (focus back on Delete), Delete removes it with its queue.
  const deleteButton = endpoint.getByRole('button', { name: 'Delete' });
  await deleteButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Delete this webhook?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Nothing more is sent to ${receiver.state.url}; its queue and log go too.`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await expect(endpoint).toHaveCount(1);
  await deleteButton.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(endpoint).toHaveCount(0);
  // Delete went with the endpoint: focus is on the section's heading, not dropped to the page.
  await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeFocused();
  await page.reload();
  await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await expect(section.getByText(receiver.state.url)).toHaveCount(0);
  const left = (await (await page.request.get(`${base}/api/webhooks`)).json()) as { endpoints: unknown[] };
  expect(left.endpoints).toEqual([]);
  // And the lead made while it was paused never came, seconds later still.
  expect(receiver.of('lead.created', whilePausedId)).toEqual([]);
});
