/**
 * What the visitor is told after a change to their call: that we emailed them only when the
 * server says the email was queued (`emailed` in its answer); otherwise where to turn instead
 * (docs/product-rules.md, "Booking").
 */
const NOT_EMAILED = 'We have not emailed you the details, so add the call to your calendar below.';

/**
 * Under "Your free call is booked". `undefined`: an answer that does not know (a confirmation
 * link clicked twice answers what the first click booked), so it claims neither.
 */
export const bookedNote = (emailed: boolean | undefined) =>
  emailed === undefined
    ? 'Add the call to your calendar below.'
    : emailed
      ? 'We have emailed you the details with a calendar invitation.'
      : NOT_EMAILED;

/** A held booking confirmed from the emailed link. */
export const confirmedNotice = (emailed: boolean | undefined) => `Your call is booked. ${bookedNote(emailed)}`;

export const movedNotice = (emailed: boolean | undefined) =>
  emailed
    ? 'Your call has been moved. We have emailed you the new time.'
    : 'Your call has been moved. Add the new time to your calendar below.';

export const cancelledNotice = (emailed: boolean | undefined) =>
  emailed ? 'Your call has been cancelled. We have emailed you to confirm.' : 'Your call has been cancelled.';
