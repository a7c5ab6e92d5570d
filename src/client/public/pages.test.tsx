import { DEFAULT_SITE_CONFIG, PLACEHOLDER_SITE_CONFIG, type SiteConfig } from '#client/lib/site-config.ts';
// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PublicApp, pageKeyForPath, pageMeta, type PublicPageKey } from './pages.tsx';
import { renderToStaticMarkup } from 'react-dom/server';

const config = {
  ...DEFAULT_SITE_CONFIG,
  year: '2031',
  name: 'Acme Diligence',
  email: 'hi@acme.test',
  phone: '(301) 555-0100',
  phoneTel: '+13015550100',
};

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
      const found = [...container.querySelectorAll('[data-island]')].map((e) => [
        e.getAttribute('data-island'),
        e.getAttribute('data-island-props'),
      ]);
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

  it('says on the landing page only what the firm saved: every claim, the figures it kept, the brand and the contact', () => {
    const website = {
      ...config.website,
      site_name: 'Acme Diligence',
      hero_badge: 'Second opinion free',
      subheadline: 'Underwriting for Maryland investors.',
      address: '9 Dock Street, Annapolis, MD 21401',
      highlights: ['Reports in 3 days', 'Reviewed twice', 'Maryland only'],
      stats: [{ value: '1', label: 'State' }],
      about_intro: 'Two analysts in Annapolis.',
      about_more: 'We read every lease.',
      about_points: ['40 clients.', 'Headquartered in Annapolis.', 'Every report read twice.'],
      services_intro: 'Commercial only.',
      steps_intro: 'Three steps, three days.',
      steps: ['Send the deal.', 'Within 3 days, the report.', 'Decide.'],
      why_intro: 'Slow and careful.',
      reasons: [
        { title: 'Local Analysts', text: 'Both live here.' },
        { title: 'Careful Turnaround', text: 'Three days, every time.' },
        { title: 'Maryland Only', text: 'One state, known well.' },
        { title: 'Plain Reports', text: 'No jargon.' },
      ],
      contact_intro: 'We answer within a week.',
      form_note: 'Second opinion free.',
      tagline: 'Careful diligence for Maryland investors.',
      page_title: 'Careful diligence',
      meta_description: 'Maryland only.',
    };
    const acme: SiteConfig = { ...config, website };
    render(<PublicApp page="landing" config={acme} />);
    const main = screen.getByRole('main');
    for (const text of [
      'Second opinion free',
      'Reports in 3 days',
      'Two analysts in Annapolis.',
      'We read every lease.',
      'Headquartered in Annapolis.',
      'Commercial only.',
      'Three steps, three days.',
      'Within 3 days, the report.',
      'Slow and careful.',
      'One state, known well.',
      'We answer within a week.',
      'Second opinion free.',
    ]) {
      expect(main).toHaveTextContent(text);
    }
    expect(screen.getByRole('heading', { level: 3, name: 'Maryland Only' })).toBeInTheDocument();
    // The steps' titles are the product's.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Submit a deal', 'Get your report', 'Close with confidence']),
    );
    expect(main).not.toHaveTextContent(/50 states|24 hours|Frederick/i);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Careful diligence for Maryland investors.');
    expect(screen.getByRole('contentinfo')).not.toHaveTextContent(/50 states/i);
    expect(pageMeta('landing', acme)).toEqual({ title: 'Acme Diligence | Careful diligence', description: 'Maryland only.' });
  });

  it('marks each figure under the headline for the server to keep or drop only when prerendering', () => {
    const html = renderToStaticMarkup(<PublicApp page="landing" config={PLACEHOLDER_SITE_CONFIG} />);
    for (const i of [0, 1, 2, 3])
      expect(html).toMatch(new RegExp(`%%IF_W_STAT${i}%%<li[^>]*>.*?%%W_STAT${i}_VALUE%%.*?</li>%%FI_W_STAT${i}%%`));
    const served = renderToStaticMarkup(
      <PublicApp page="landing" config={{ ...config, website: { ...config.website, stats: [{ value: '7', label: 'States' }] } }} />,
    );
    expect(served).not.toContain('%%');
    expect(served.match(/<li[^>]*><p[^>]*>7<\/p><p[^>]*>States<\/p><\/li>/g)).toHaveLength(1);
  });
});
