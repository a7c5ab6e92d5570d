import { DEFAULT_WEBSITE_CONTENT } from '#shared/website-content';
import type { Config } from '../config.ts';
import { describeSmtp } from '../lib/mail-settings.ts';
import type { RequestRate } from '../lib/request-rate.ts';
import type { Logger } from 'pino';
import type { MailContext } from './messages.ts';
import { MailOutbox, type OutboxOptions } from './outbox.ts';
import { smtpTransport } from './transport.ts';
import { getWebsiteContent } from '../db/queries/website.ts';

/**
 * What every email says about the firm and where its links go, from the configuration; the
 * outbox puts in the city saved in Settings → Website (until one is saved, the default's).
 */
export function mailContext(config: Config): MailContext {
  return {
    site: { ...config.site, address: DEFAULT_WEBSITE_CONTENT.city },
    publicUrl: config.publicUrl,
    from: config.mail.from,
    domain: config.mail.domain,
    transport: config.mail.smtp ? describeSmtp(config.mail.smtp) : 'no mail server (email is off)',
  };
}

/**
 * Above this many requests per second the server is busy serving people: the outbox then
 * sends one batch at a time with a pause between (see MailOutbox), and catches up after.
 */
export const BUSY_REQUESTS_PER_SECOND = 50;

/** The outbox of this process, sending through SMTP_URL, or recording mail as not sent without it. */
export function createOutbox(
  config: Config,
  database: OutboxOptions['database'],
  logger: Logger,
  requests: RequestRate,
  options: Partial<OutboxOptions> = {},
): MailOutbox {
  return new MailOutbox({
    busy: () => requests.perSecond() > BUSY_REQUESTS_PER_SECOND,
    database,
    transport: config.mail.smtp ? smtpTransport(config.mail.smtp) : undefined,
    context: mailContext(config),
    siteAddress: async (db) => (await getWebsiteContent(db.db, config.site.name)).content.city,
    from: config.mail.from,
    replyTo: config.mail.replyTo,
    logger,
    ...options,
  });
}
