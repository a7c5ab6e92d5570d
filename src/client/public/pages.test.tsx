import { DEFAULT_SITE_CONFIG } from '#client/lib/site-config.ts';
// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PublicApp, pageKeyForPath, pageMeta, type PublicPageKey } from './pages.tsx';

const config = { ...DEFAULT_SITE_CONFIG, year: '2031', name: 'Acme Diligence', email: 'hi@acme.test', phone: '(301) 555-0100', phoneTel: '+13015550100' };

afterEach(cleanup);

describe('public pages', () => {
  it('maps paths to pages, unknown ones to the 404 page', () => {
    expect(pageKeyForPath('/')).toBe('landing');
    expect(pageKeyForPath('/privacy')).toBe('privacy');
    expect(pageKeyForPath('/terms/')).toBe('terms');
    expect(pageKeyForPath('/nope')).toBe('not-found');
  });

  it.each<[PublicPageKey, string]>([
    ['landing', 'Real estate due diligence you can close on'],
    ['careers', 'Careers'],
    ['privacy', 'Privacy Policy'],
    ['terms', 'Terms of Service'],
    ['cookies', 'Cookie Policy'],
    ['not-found', 'Page Not Found'],
  ])('%s has one h1, the landmarks and the brand in the footer', (page, heading) => {
    render(<PublicApp page={page} config={config} />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(heading);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2031 Acme Diligence. All rights reserved.');
    expect(pageMeta(page, config).title).toContain('Acme Diligence');
  });

  it('marks only the interactive parts as islands for the browser to hydrate, with their props', () => {
    const islands = (page: PublicPageKey) => {
      const { container } = render(<PublicApp page={page} config={config} />);
      const found = [...container.querySelectorAll('[data-island]')].map((e) => [e.getAttribute('data-island'), e.getAttribute('data-island-props')]);
      cleanup();
      return found;
    };
    expect(islands('landing')).toEqual([
      ['site-header', '{"overlay":true}'],
      ['get-started', '{}'],
      ['lead-form', '{}'],
      ['toaster', '{}'],
    ]);
    expect(islands('privacy')).toEqual([
      ['site-header', '{"overlay":false}'],
      ['toaster', '{}'],
    ]);
  });

  it('the 404 page has the product text and a way home', () => {
    render(<PublicApp page="not-found" config={config} />);
    expect(screen.getByText("The page you are looking for doesn't exist or has been moved.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('the privacy policy names what the form and the analytics collect', () => {
    render(<PublicApp page="privacy" config={config} />);
    const main = screen.getByRole('main');
    for (const text of [
      'your name, email address and phone number',
      'the property type you choose',
      'the date and time of the submission',
      'not stored with your lead',
      'analytics_session_id',
      'user agent',
      'referrer',
      'no cookies',
      'no cross-site tracking',
    ]) {
      expect(main).toHaveTextContent(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'));
    }
    expect(within(main).getByRole('link', { name: 'hi@acme.test' })).toHaveAttribute('href', 'mailto:hi@acme.test');
  });
});
