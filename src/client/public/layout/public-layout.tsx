import type { ReactNode } from 'react';
import { Toaster } from '#client/components/ui/toaster.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Skip link, header, one <main>, footer and the toast region of every public page. */
export function PublicLayout({ children, overlayHeader = false }: { children: ReactNode; overlayHeader?: boolean }) {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <SiteHeader overlay={overlayHeader} />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <Toaster />
    </>
  );
}
