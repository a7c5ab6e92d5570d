import { DEFAULT_WEBSITE_CONTENT, type WebsiteContent } from '#shared/website-content';
import type { Config } from '../config.ts';
import { describeSmtp } from '../lib/mail-settings.ts';
import type { Logger } from 'pino';
import type { MailContext } from './templates/render.ts';
import { MailOutbox, type OutboxOptions } from './outbox.ts';
import { smtpTransport } from './transport.ts';
import type { Db } from '../db/client.ts';
import { getWebsiteContent } from '../db/queries/website-queries.ts';

/**
 * What every email says about the firm and where its links go, from the configuration: the
 * brand and contact block as before any save in Settings → Website. The outbox puts in the
 * saved ones (`mailSite`) when it sends; the sender (MAIL_FROM) and the domain of Message-IDs
 * and calendar UIDs stay the configuration's, so a new brand keeps updating the same events.
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

/** The brand, city, phone and email the website shows now (Settings → Website; the environment's until saved). */
export async function mailSite(db: Db, config: Config): Promise<MailContext['site']> {
  return siteOf((await getWebsiteContent(db, config.site)).content);
}

/** The brand and contact block of the website's words (mailSite's answer, from words already read). */
export const siteOf = (content: WebsiteContent): MailContext['site'] => ({
  name: content.site_name,
  email: content.email,
  phone: content.phone,
  address: content.city,
});

/** mailContext with the brand and contact block the website shows now: for subjects composed outside the outbox. */
export async function currentMailContext(db: Db, config: Config): Promise<MailContext> {
  return { ...mailContext(config), site: await mailSite(db, config) };
}

/** The outbox of this process, sending through SMTP_URL, or recording mail as not sent without it. */
export function createOutbox(
  config: Config,
  database: OutboxOptions['database'],
  logger: Logger,
  options: Partial<OutboxOptions> = {},
): MailOutbox {
  return new MailOutbox({
    database,
    transport: config.mail.smtp ? smtpTransport(config.mail.smtp) : undefined,
    // Read at send time: the brand may have been saved since, and PORT=0 learns its port on listening.
    context: (database) => currentMailContext(database.db, config),
    from: config.mail.from,
    replyTo: config.mail.replyTo,
    unreachableRetryMs: config.mail.retrySeconds * 1000,
    leaseSeconds: config.mail.claimSeconds,
    logger,
    ...options,
  });
}
