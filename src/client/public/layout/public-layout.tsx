import type { ReactNode } from 'react';
import { Island } from '../island.tsx';
import { SiteFooter } from './site-footer.tsx';

/** Skip link, header, one <main>, footer and the toast region of every public page. */
export function PublicLayout({ children, overlayHeader = false }: { children: ReactNode; overlayHeader?: boolean }) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <Island name="site-header" overlay={overlayHeader} />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <Island name="toaster" />
    </>
  );
}
