import { describe, expect, it } from 'vitest';
import { bookedNote, cancelledNotice, confirmedNotice, movedNotice } from './told.ts';

describe('what the visitor is told after a change', () => {
  it('says we emailed them only when the server queued the mail, that we did not when it did not, and neither when it does not know', () => {
    expect(bookedNote(true)).toBe('We have emailed you the details with a calendar invitation.');
    expect(bookedNote(false)).toBe('We have not emailed you the details, so add the call to your calendar below.');
    expect(bookedNote(undefined)).toBe('Add the call to your calendar below.');
    expect(confirmedNotice(true)).toBe('Your call is booked. We have emailed you the details with a calendar invitation.');
    expect(confirmedNotice(false)).toBe(
      'Your call is booked. We have not emailed you the details, so add the call to your calendar below.',
    );
    expect(movedNotice(true)).toBe('Your call has been moved. We have emailed you the new time.');
    expect(movedNotice(false)).toBe('Your call has been moved. Add the new time to your calendar below.');
    expect(cancelledNotice(true)).toBe('Your call has been cancelled. We have emailed you to confirm.');
    expect(cancelledNotice(false)).toBe('Your call has been cancelled.');
  });
});
