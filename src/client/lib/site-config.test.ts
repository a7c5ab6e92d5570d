import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, parseSiteConfig } from './site-config.ts';

describe('parseSiteConfig', () => {
  it('reads the JSON the server filled in', () => {
    const config = {
      ...DEFAULT_SITE_CONFIG,
      name: 'Acme <Diligence>',
      email: 'hi@acme.test',
      phone: '1-800',
      phoneTel: '1800',
      year: '2031',
    };
    expect(parseSiteConfig(JSON.stringify(config).replace(/</g, '\\u003c'))).toEqual(config);
  });

  it('reads one to four figures', () => {
    const config = { ...DEFAULT_SITE_CONFIG, website: { ...DEFAULT_SITE_CONFIG.website, stats: [{ value: '6', label: 'States' }] } };
    expect(parseSiteConfig(JSON.stringify(config))).toEqual(config);
  });

  it('falls back when the website words lack a part the pages render', () => {
    const { website } = DEFAULT_SITE_CONFIG;
    for (const broken of [
      { ...website, stats: [] },
      { ...website, stats: [...website.stats, { value: '1', label: 'More' }] },
      { ...website, headline: 5 },
      { ...website, tagline: undefined },
      { ...website, reasons: website.reasons.slice(1) },
      { ...website, services: [...website.services.slice(1), { title: 'x' }] },
    ]) {
      expect(parseSiteConfig(JSON.stringify({ ...DEFAULT_SITE_CONFIG, website: broken }))).toEqual(DEFAULT_SITE_CONFIG);
    }
  });

  it('falls back to the defaults when the block was not substituted (dev) or is malformed', () => {
    expect(parseSiteConfig('%%SITE_CONFIG_JSON%%')).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig(undefined)).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig('{"name":"x"}')).toEqual(DEFAULT_SITE_CONFIG);
    expect(parseSiteConfig('null')).toEqual(DEFAULT_SITE_CONFIG);
  });
});
