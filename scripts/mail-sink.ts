/**
 * A mail server for development and the browser tests that keeps what it receives instead of
 * delivering it: SMTP on 127.0.0.1:MAIL_SINK_SMTP_PORT (1025), and the messages at
 * http://127.0.0.1:MAIL_SINK_HTTP_PORT (1080): a page listing them, /messages as JSON,
 * /messages/<n>.eml the raw message, DELETE /messages to empty it.
 *
 *   npm run mail:dev                      # on its own
 *   npm run dev                           # starts it, with the server's SMTP_URL pointed at it
 */
import http from 'node:http';
import { startMailSink, type ReceivedMail } from '../src/server/test/mail-sink.ts';

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT ?? 1025);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT ?? 1080);
const sink = await startMailSink({ port: smtpPort });

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** What the browser tests read: the parsed message, attachments as text. */
const asJson = (m: ReceivedMail, index: number) => ({
  index,
  envelope: m.envelope,
  messageId: m.parsed.messageId,
  subject: m.parsed.subject,
  from: m.parsed.from?.text,
  replyTo: m.parsed.replyTo?.text ?? null,
  inReplyTo: m.parsed.inReplyTo ?? null,
  to: [m.parsed.to ?? []]
    .flat()
    .map((a) => a.text)
    .join(', '),
  text: m.parsed.text,
  html: m.parsed.html || null,
  attachments: m.parsed.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content.toString('utf8') })),
  receivedAt: m.receivedAt.toISOString(),
});

function page(): string {
  const rows = sink.messages
    .map((m, i) => ({ m, i }))
    .reverse()
    .map(
      ({ m, i }) =>
        `<tr><td>${escapeHtml(m.receivedAt.toLocaleString())}</td><td>${escapeHtml(m.envelope.to.join(', '))}</td><td>${escapeHtml(m.parsed.subject ?? '')}</td>` +
        `<td><details><summary>text</summary><pre>${escapeHtml(m.parsed.text ?? '')}</pre></details></td><td><a href="/messages/${i}.eml">.eml</a></td></tr>`,
    )
    .join('');
  return `<!doctype html><meta charset="utf-8"><title>Caught mail</title><style>body{font-family:system-ui;margin:2rem}td{padding:.3rem .8rem;vertical-align:top;border-bottom:1px solid #ddd}pre{white-space:pre-wrap;max-width:60rem}</style>
<h1>Caught mail (${sink.messages.length})</h1><p>SMTP on 127.0.0.1:${sink.port}. Newest first; reload to see more.</p><table>${rows}</table>`;
}

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'DELETE' && url.pathname === '/messages') {
      sink.messages.length = 0;
      return res.writeHead(204).end();
    }
    if (url.pathname === '/messages') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(sink.messages.map(asJson)));
    }
    const raw = /^\/messages\/(\d+)\.eml$/.exec(url.pathname);
    if (raw && sink.messages[Number(raw[1])]) {
      res.writeHead(200, { 'content-type': 'message/rfc822' });
      return res.end(sink.messages[Number(raw[1])]!.raw);
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page());
    }
    res.writeHead(404).end();
  })
  .listen(httpPort, '127.0.0.1', () => {
    console.log(`mail sink: SMTP on smtp://127.0.0.1:${sink.port}, messages at http://127.0.0.1:${httpPort}`);
  });
