import { describe, expect, it } from 'vitest';
import { phoneSearchDigits } from './phone-search.ts';

describe('phoneSearchDigits', () => {
  it.each([
    ['410-555-0142', '4105550142'],
    ['4105550142', '4105550142'],
    ['(410) 555-0142', '4105550142'],
    ['410.555.0142', '4105550142'],
    ['+1 410 555 0142', '4105550142'],
    ['+1 (410) 555-0142', '4105550142'],
    ['+14105550142', '4105550142'],
    ['1-410-555-0142', '4105550142'],
    ['14105550142', '4105550142'],
    ['+1 410 555', '410555'],
    ['555-0142', '5550142'],
    ['  0142 ', '0142'],
    ['+44 20 7946 0958', '442079460958'],
  ])('%s looks for %s', (search, digits) => {
    expect(phoneSearchDigits(search)).toBe(digits);
  });

  it.each(['', '5', '55', '555', '(41)', '+1 410', '+1 555', 'jane', 'lead1234@gmail.com', 'Suite 1200', '410-555-0142 x', '%1234%'])(
    '%j is not searched by digits (too few, or not a phone number)',
    (search) => {
      expect(phoneSearchDigits(search)).toBeNull();
    },
  );
});
