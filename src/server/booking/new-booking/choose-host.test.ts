import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import type { StoredHostRow } from '../../db/queries/hosts-queries.ts';
import { hostsOf } from '../open-slot.ts';
import { chosenTeam, heldTeam, requireChoosing } from './choose-host.ts';
import { refusalOfCall } from '../../test/refusal.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const stored = (id: string): StoredHostRow => ({ id, hours: null, days_off: [], holidays_off: true, busy: [], outside: [] });
const team = hostsOf(DEFAULT_BOOKING_SETTINGS, [stored(A), stored(B)]);
const choosing = { ...DEFAULT_BOOKING_SETTINGS, visitors_choose_host: true };
const notChoosing = { ...DEFAULT_BOOKING_SETTINGS, visitors_choose_host: false };

describe('requireChoosing', () => {
  it('lets a visitor name a person only where the owners let visitors choose', () => {
    expect(() => requireChoosing(notChoosing, undefined)).not.toThrow();
    expect(() => requireChoosing(choosing, A)).not.toThrow();
    expect(refusalOfCall(() => requireChoosing(notChoosing, A))).toEqual({
      status: 400,
      message: 'Visitors cannot choose who their call is with here.',
      fields: { host_id: 'Leave it to us: any available' },
    });
  });
});

describe('chosenTeam', () => {
  it('is everyone who takes website calls when nobody is chosen, whether or not visitors may choose', () => {
    expect(chosenTeam(notChoosing, team, undefined)).toBe(team);
    expect(chosenTeam(choosing, team, undefined)).toBe(team);
  });

  it('is the one person chosen, when the owners let visitors choose', () => {
    expect(chosenTeam(choosing, team, B).map((h) => h.id)).toEqual([B]);
  });

  it('refuses a choice where visitors may not choose, and someone who does not take website calls', () => {
    expect(refusalOfCall(() => chosenTeam(notChoosing, team, A)).fields).toEqual({ host_id: 'Leave it to us: any available' });
    expect(refusalOfCall(() => chosenTeam(choosing, team, '00000000-0000-4000-8000-00000000000c'))).toEqual({
      status: 400,
      message: 'That person does not take calls from the website.',
      fields: { host_id: 'Choose who the call is with' },
    });
  });
});

describe('heldTeam', () => {
  it('keeps the person chosen when the time was held, else everyone', () => {
    expect(heldTeam(team, A).map((h) => h.id)).toEqual([A]);
    expect(heldTeam(team, null)).toBe(team);
    // Someone who stopped taking calls meanwhile: nobody, so the time is no longer open.
    expect(heldTeam(team, '00000000-0000-4000-8000-00000000000c')).toEqual([]);
  });
});
