import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, parseSiteConfig } from './site-config.ts';

describe('parseSiteConfig', () => {
  it('reads the JSON the server filled in', () => {
    const config = { name: 'Acme <Diligence>', email: 'hi@acme.test', phone: '1-800', phoneTel: '1800' };
    expect(parseSiteConfig(JSON.stringify(config).replace(/</g, '\\u003c'))).toEqual(config);
  });

  it('falls back to the defaults when the block was not substituted (dev) or is malformed', () => {
    expect(parseSiteConfig('%%SITE_CONFIG_JSON%%')).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig(undefined)).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig('{"name":"x"}')).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig('null')).toEqual(DEFAULT_SITE_CONFIG);
  });
});
