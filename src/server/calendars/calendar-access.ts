import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { getWebsiteContent } from '../db/queries/website-queries.ts';
import type { CredentialsVault } from '../lib/credentials.ts';

/** What reading calendars needs: the database, the credentials, the firm's clock and who may be reached. */
export type CalendarAccess = {
  db: Db;
  vault: CredentialsVault;
  timeZone: string;
  allowHosts: Config['outboundAllowHosts'];
  logger?: Logger;
  /** Tests answer name lookups themselves, so nothing leaves the machine. */
  lookupAddresses?: (name: string) => Promise<string[]>;
  /** The host part of the UIDs of booked calls (the invitation emails' own), for their copies in hosts' calendars. */
  uidDomain: string;
  /** The firm's name as the website shows it now, for the copies' PRODID. */
  siteName: () => Promise<string>;
};

/** The calendar access of a process with `config`, opening secrets with its credentials vault (loaded once, in main.ts). */
export function calendarAccess(db: Db, config: Config, vault: CredentialsVault, logger?: Logger): CalendarAccess {
  return {
    db,
    vault,
    timeZone: config.businessTimeZone,
    allowHosts: config.outboundAllowHosts,
    uidDomain: config.mail.domain,
    siteName: async () => (await getWebsiteContent(db, config.site)).content.site_name,
    ...(logger && { logger }),
  };
}
