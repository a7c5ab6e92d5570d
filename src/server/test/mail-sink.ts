import { Waiters } from './waiters.ts';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server that keeps what it receives, for tests, benchmarks and `npm run dev`
 * (scripts/mail-sink.ts): the product sends to it through nodemailer exactly as it would to
 * a firm's mail server, and the test reads the parsed messages.
 */
export type ReceivedMail = {
  /** The SMTP envelope: who the server was told the message is for. */
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  raw: string;
  receivedAt: Date;
};

export type MailSinkOptions = {
  /** 0 (default): any free port. */
  port?: number;
  /** A recipient this returns a reply for is refused with it (e.g. "550 5.1.1 No such user"). */
  refuse?: (address: string) => string | undefined;
  /** Waits this long before accepting each message (a slow server). */
  delayMs?: number;
};

export type MailSink = {
  port: number;
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the messages once `done(messages)` holds; rejects after `timeoutMs`. */
  waitFor: (done: (messages: ReceivedMail[]) => boolean, timeoutMs?: number) => Promise<ReceivedMail[]>;
  close: () => Promise<void>;
};

export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Waiters();
  const server = new SMTPServer({
    // Any credentials are accepted, over plain text on loopback (no certificate to offer, so no STARTTLS).
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    logger: false,
    size: 10 * 1024 * 1024,
    // Closing ends the connections still open (a server's pooled one) after a moment, not the library's 30 s.
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      const code = Number(refusal.slice(0, 3));
      callback(Object.assign(new Error(refusal.slice(4)), { responseCode: Number.isInteger(code) ? code : 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const accept = () =>
          simpleParser(raw).then(
            (parsed) => {
              messages.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                parsed,
                raw,
                receivedAt: new Date(),
              });
              waiters.notify();
              callback();
            },
            (err: unknown) => callback(err as Error),
          );
        if (options.delayMs) setTimeout(accept, options.delayMs);
        else void accept();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const waitFor = (done: (m: ReceivedMail[]) => boolean, timeoutMs = 15_000) =>
    waiters.until(
      () => (done(messages) ? messages : undefined),
      timeoutMs,
      () =>
        `the mail sink did not get what was expected within ${timeoutMs} ms (${messages.length} messages: ${messages.map((m) => m.parsed.subject).join('; ')})`,
    );

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The recipients a message was sent to (the envelope), lower-cased. */
export const recipientsOf = (mail: ReceivedMail) => mail.envelope.to.map((a) => a.toLowerCase());

/** Messages to one address. */
export const mailTo = (messages: ReceivedMail[], address: string) =>
  messages.filter((m) => recipientsOf(m).includes(address.toLowerCase()));
