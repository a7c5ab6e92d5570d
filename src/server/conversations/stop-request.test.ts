import { describe, expect, it } from 'vitest';
import { asksToStop } from './stop-request.ts';

describe('asksToStop', () => {
  it('hears a request to stop in the subject or the reply’s own first lines, not in the message it quotes', () => {
    expect(asksToStop('Unsubscribe', '')).toBe(true);
    expect(asksToStop('Re: Your review', 'Please stop emailing me.\n\nThanks')).toBe(true);
    expect(asksToStop('Re: Your review', 'Remove me from your list')).toBe(true);
    expect(asksToStop('Re: Your review', 'Don’t email me again.')).toBe(true);
    expect(asksToStop('Re: Your review', 'Thursday works.\n\nOn Mon, Nov 23, Dana wrote:\n> reply "stop emailing me" to opt out')).toBe(
      false,
    );
    expect(asksToStop('Re: Your review', 'Thursday works.\n> unsubscribe')).toBe(false);
    expect(asksToStop('Re: Bus stop', 'The property is by the bus stop.')).toBe(false);
  });
});
