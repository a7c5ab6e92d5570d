import { describe, expect, it } from 'vitest';
import { deviceOf, referrerHostOf } from './event-sources.ts';

describe('deviceOf', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', 'tablet'],
  ])('%s is %s', (ua, device) => expect(deviceOf(ua)).toBe(device));
});

describe('referrerHostOf', () => {
  it('names the referring site without www., Direct without one, nothing for our own pages', () => {
    expect(referrerHostOf('https://www.Google.com/search?q=x', 'crm.example')).toBe('google.com');
    expect(referrerHostOf('', 'crm.example')).toBe('Direct');
    expect(referrerHostOf(undefined, 'crm.example')).toBe('Direct');
    expect(referrerHostOf('not a url', 'crm.example')).toBe('Direct');
    expect(referrerHostOf('https://crm.example/privacy', 'crm.example:443')).toBeUndefined();
    expect(referrerHostOf('https://www.crm.example/', 'crm.example')).toBeUndefined();
  });
});
