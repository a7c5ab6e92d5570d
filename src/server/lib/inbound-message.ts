import type { Mailbox } from './mail-settings.ts';

/** A message read from the reply mailbox, as we keep it (conversations/inbound-mail.ts makes it; conversations/store-reply.ts stores it). */
export type InboundMessage = {
  messageId: string | null;
  inReplyTo: string | null;
  /** Message-IDs it answers, In-Reply-To first, then References from the newest. */
  answers: string[];
  from: Mailbox;
  to: string;
  cc: string;
  /** Every address it was sent to (To, Cc, Delivered-To, X-Original-To), lower-case: where a reply token is looked for. */
  recipients: string[];
  subject: string;
  date: Date | null;
  /** When the mailbox received it (IMAP INTERNALDATE); null: now. */
  receivedAt?: Date | null;
  body: string;
  attachments: InboundAttachment[];
  /** Its subject or first lines ask us to stop writing ("unsubscribe", "stop emailing me"…). */
  asksToStop: boolean;
  /** Whether the receiving server saw the From domain pass DMARC (or SPF and DKIM). */
  senderVerified: boolean;
};

export type InboundAttachment = { filename: string; contentType: string; size: number; content: Buffer };
