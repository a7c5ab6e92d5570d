import type { AddressInfo } from 'node:net';
/**
 * An SMTP server for the email benchmark, in its own process so its work is not the app's:
 * accepts every message on 127.0.0.1:SMTP_PORT and throws it away, counting messages and
 * distinct Message-IDs (a message sent twice shows as a duplicate). GET / on 127.0.0.1:PORT
 * answers 200 (ready); GET /stats the counts and when the first and last message arrived.
 */
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const messageIds = new Set<string>();
let messages = 0;
let firstAt: number | null = null;
let lastAt: number | null = null;

const smtp = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anonymous' }),
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk: Buffer) => {
      // The headers are in the first few hundred bytes; the body is not needed.
      if (head.length < 8192) head += chunk.toString('utf8');
    });
    stream.on('end', () => {
      messages += 1;
      const id = /^message-id:\s*(<[^>\r\n]+>)/im.exec(head)?.[1];
      if (id) messageIds.add(id);
      lastAt = Date.now();
      firstAt ??= lastAt;
      callback();
    });
  },
});
smtp.listen(Number(process.env.SMTP_PORT), '127.0.0.1');

const server = http
  .createServer((req, res) => {
    if (req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ messages, distinct: messageIds.size, firstAt, lastAt }));
    }
    res.writeHead(req.url === '/' ? 200 : 404).end();
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => {
    // PORT=0 takes any free port; the one it got goes to startServer over IPC.
    process.send?.({ event: 'listening', port: (server.address() as AddressInfo).port }, () => {});
  });

process.on('SIGTERM', () => {
  server.close();
  smtp.close(() => process.exit(0));
});
