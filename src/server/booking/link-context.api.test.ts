import { beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../lib/secret-token.ts';
import { openFirm } from '../test/booking-firm.ts';
import { refusalOf } from '../test/refusal.ts';
import { useTestDatabase } from '../test/database.ts';
import { LINK_INVALID } from './booking-link.ts';
import { loadLink } from './link-context.ts';

const database = useTestDatabase();
let firm: Awaited<ReturnType<typeof openFirm>>;
beforeEach(async () => {
  firm = await openFirm(database);
});

describe('loadLink', () => {
  it('reads the link, the settings and, given a start, the people who take calls with that date’s calls', async () => {
    const token = await firm.newLink({ full_name: 'Jane Doe' });
    const slot = (await firm.openTimes(firm.day(2)))[0]!;
    const loaded = await loadLink(firm.request(), token, slot);
    expect(loaded.row).toMatchObject({ full_name: 'Jane Doe', expired: false, appointment: null });
    expect(loaded.hash).toBe(hashToken(token));
    expect(loaded.timeZone).toBe('America/New_York');
    expect(loaded.settings.enabled).toBe(true);
    expect(loaded.hosts.map((h) => h.id)).toEqual([firm.owner.id]);
  });

  it('answers 404 for a link we never made', async () => {
    expect(await refusalOf(loadLink(firm.request(), 'A'.repeat(43)))).toMatchObject({ status: 404, message: LINK_INVALID });
  });

  it('opens no credentials while nobody’s outside calendar is due to be read', async () => {
    const token = await firm.newLink();
    const slot = (await firm.openTimes(firm.day(2)))[0]!;
    const request = {
      ...firm.request(),
      vault: () => {
        throw new Error('the vault was opened');
      },
    };
    expect((await loadLink(request, token, slot)).row.appointment).toBeNull();
  });
});
