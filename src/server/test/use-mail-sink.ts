import { afterAll, beforeAll } from 'vitest';
import { startMailSink, type MailSink } from './mail-sink.ts';

/**
 * A real SMTP server for the tests of one file: started before them, closed after. Each test
 * may empty `messages` and set the recipients it should refuse, with the server's reply
 * ("550 5.1.1 Mailbox unavailable"), in `refused`.
 */
export function useMailSink(): { readonly sink: MailSink; refused: Map<string, string> } {
  const refused = new Map<string, string>();
  let sink: MailSink | undefined;
  beforeAll(async () => {
    sink = await startMailSink({ refuse: (address) => refused.get(address) });
  });
  afterAll(async () => {
    await sink?.close();
  });
  return {
    get sink() {
      if (!sink) throw new Error('the mail sink starts in beforeAll: use it inside a test or hook');
      return sink;
    },
    refused,
  };
}
