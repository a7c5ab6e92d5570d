import nodemailer from 'nodemailer';
import type { Mailbox, SmtpSettings } from '../lib/mail-settings.ts';
import type { ComposedEmail } from './templates/render.ts';

/** One message, ready for the wire. */
export type OutgoingMessage = ComposedEmail & { messageId: string; to: Mailbox; from: Mailbox; replyTo: Mailbox | undefined };

/** How the outbox hands messages to a mail server. */
export type MailTransport = {
  send: (message: OutgoingMessage) => Promise<void>;
  close: () => void;
};

/**
 * SMTP through nodemailer: a small pool of connections kept open between messages, STARTTLS
 * whenever the server offers it (smtps:// for TLS from the start), and timeouts of seconds,
 * so a server that stops answering fails a send instead of holding the outbox for minutes.
 */
export function smtpTransport(smtp: SmtpSettings): MailTransport {
  const transporter = nodemailer.createTransport({
    pool: true,
    maxConnections: 2,
    maxMessages: 500,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.auth,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    // Outgoing text is UTF-8 with quoted-printable or base64 as nodemailer picks.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    send: async (m) => {
      await transporter.sendMail({
        messageId: m.messageId,
        from: m.from,
        to: m.to,
        replyTo: m.replyTo,
        subject: m.subject,
        text: m.text,
        html: m.html,
        ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: m.inReplyTo } : {}),
        ...(m.icalEvent ? { icalEvent: { method: m.icalEvent.method, content: m.icalEvent.content, filename: 'invite.ics' } } : {}),
      });
    },
    close: () => transporter.close(),
  };
}
