import { DEFAULT_SITE_CONFIG } from '#client/lib/site-config.ts';
// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteConfigProvider } from '#client/public/site-config-context.tsx';
import { SiteHeader } from './site-header.tsx';

const config = { ...DEFAULT_SITE_CONFIG, name: 'Acme Diligence', email: 'hi@acme.test', phone: '(301) 555-0100', phoneTel: '+13015550100' };

function renderHeader(overlay = true) {
  return render(
    <SiteConfigProvider config={config}>
      <SiteHeader overlay={overlay} />
    </SiteConfigProvider>,
  );
}

afterEach(() => {
  cleanup();
  window.scrollY = 0;
});

describe('SiteHeader', () => {
  it('links the brand home, Contact to the form and Admin Login to /login', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Acme Diligence' })).toHaveAttribute('href', '/');
    expect(screen.getAllByRole('link', { name: 'Contact', hidden: true })[0]).toHaveAttribute('href', '/#contact');
    expect(screen.getAllByRole('link', { name: 'Admin Login', hidden: true })[0]).toHaveAttribute('href', '/login');
  });

  it('turns solid only after scrolling more than 10px', () => {
    renderHeader();
    const header = screen.getByRole('banner');
    expect(header).toHaveAttribute('data-solid', 'false');
    act(() => {
      window.scrollY = 10;
      fireEvent.scroll(window);
    });
    expect(header).toHaveAttribute('data-solid', 'false');
    act(() => {
      window.scrollY = 11;
      fireEvent.scroll(window);
    });
    expect(header).toHaveAttribute('data-solid', 'true');
  });

  it('is solid from the start on pages without a hero', () => {
    renderHeader(false);
    expect(screen.getByRole('banner')).toHaveAttribute('data-solid', 'true');
  });

  it('opens and closes the mobile menu, reflecting it in aria-expanded', async () => {
    const user = userEvent.setup({ delay: null });
    renderHeader();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', 'mobile-menu');
    expect(document.getElementById('mobile-menu')).not.toBeVisible();
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('mobile-menu')).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});
