import { createLead } from '../src/server/db/queries/leads-queries.ts';
import { insertUser } from '../src/server/db/queries/users-queries.ts';
import type { Db } from '../src/server/db/client.ts';
import { freePort, startServer, type ServerProcess } from '../src/server/test/process.ts';

/**
 * The email benchmark's parts: an SMTP sink in its own process (bench/lib/smtp-sink.ts) and a
 * database seeded with queued mail. bench/run.ts drives them against the built server.
 */

export type SinkStats = { messages: number; distinct: number; firstAt: number | null; lastAt: number | null };

export type SmtpSink = {
  /** smtp://127.0.0.1:<port>, for the server's SMTP_URL. */
  smtpUrl: string;
  stats: () => Promise<SinkStats>;
  /** Resolves with the stats once `count` messages arrived, or after `timeoutMs` with what did. */
  waitFor: (count: number, timeoutMs: number) => Promise<SinkStats>;
  stop: ServerProcess['stop'];
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const smtpPort = await freePort();
  const proc = await startServer(
    { SMTP_PORT: String(smtpPort) },
    { entry: ['--import', 'tsx', 'bench/lib/smtp-sink.ts'], isolated: true, readyPath: '/' },
  );
  const stats = async (): Promise<SinkStats> => (await fetch(`${proc.url}/stats`)).json() as Promise<SinkStats>;
  const waitFor = async (count: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await stats();
      if (s.messages >= count || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, stats, waitFor, stop: proc.stop };
}

export const SEEDED_ADMIN = 'bench-mail@example.com';

/**
 * Queues `messages` emails the way the public form does: messages / 2 leads, each with its
 * acknowledgement and the "new lead" alert to one admin (who is not the ADMIN_EMAIL admin, so
 * the server's start-up adds nobody who would get these).
 */
export async function seedQueuedMail(db: Db, messages: number, domain: string): Promise<void> {
  if (messages % 2 !== 0) throw new Error('seedQueuedMail queues two messages per lead: give an even count');
  await insertUser(db, SEEDED_ADMIN, 'not-a-password-hash');
  for (let i = 0; i < messages / 2; i++) {
    await createLead(
      db,
      {
        full_name: `Queued Lead ${i}`,
        email: `queued+${i}@example.com`,
        phone: '(301) 555-0142',
        property_types: ['single-family'],
        message: 'Buying a house in Frederick; would like a title search and a survey review before closing.',
      },
      { mail: { domain, sending: true, acknowledge: true } },
    );
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** How much slower lead submissions are with email on: (off − on) / off, in percent (negative: faster). */
export const slowdownPercent = (offRps: number, onRps: number) => ((offRps - onRps) / offRps) * 100;

export function describeDrain(label: string, expected: number, s: SinkStats, sinceMs: number): string[] {
  const window = s.firstAt !== null && s.lastAt !== null ? (s.lastAt - s.firstAt) / 1000 : 0;
  return [
    `  ${label}: ${fmt(s.messages)} of ${fmt(expected)} messages received, ${fmt(s.distinct)} distinct Message-IDs`,
    `    first to last message ${fmt(window, 1)} s (${fmt(window > 0 ? s.messages / window : 0)}/s); ${fmt(sinceMs / 1000, 1)} s from the start mark`,
  ];
}
