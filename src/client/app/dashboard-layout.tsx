import { Menu } from '#client/components/icons.tsx';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AccountMenu } from '#client/features/account/components/account-menu.tsx';
import { NotificationBell } from '#client/features/notifications/components/notification-bell.tsx';
import { DeploymentBanner } from './deployment-banner.tsx';
import { useNotificationStream } from '#client/features/notifications/use-notification-stream.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAuth } from '#client/lib/auth.tsx';
import { readSiteConfig } from '#client/lib/site-config.ts';
import { useMediaQuery } from '#client/lib/use-media-query.ts';
import { Sidebar } from './sidebar.tsx';

const SIDEBAR_ID = 'dashboard-sidebar';

export function DashboardLayout() {
  const { user, signOut, refresh } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const [siteName] = useState(() => readSiteConfig().name);
  const desktop = useMediaQuery('(min-width: 1024px)');

  // Close the small-screen menu on navigation and on Escape, returning focus to the toggle.
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }
  // Closing by the close button, the overlay or Escape puts focus back on the toggle, once
  // the page behind the menu is no longer inert (after the re-render).
  const refocusToggle = useRef(false);
  const closeMenu = () => {
    refocusToggle.current = true;
    setMenuOpen(false);
  };
  useEffect(() => {
    if (menuOpen || !refocusToggle.current) return;
    refocusToggle.current = false;
    toggle.current?.focus();
  }, [menuOpen]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      closeMenu();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const logout = async () => {
    await signOut();
    void navigate('/login', { replace: true });
  };

  // The stream was refused: re-check the session; if it has ended, the guard redirects to /login.
  useNotificationStream(refresh);

  const email = user?.email ?? '';
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Sidebar id={SIDEBAR_ID} open={menuOpen} desktop={desktop} siteName={siteName} onClose={closeMenu} onLogout={() => void logout()} />
      {/* While the phone menu is open, the page behind it is out of reach (a modal menu). */}
      <div className="lg:pl-64" inert={menuOpen && !desktop}>
        <header className="sticky top-0 z-20 flex h-16 items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 sm:px-6">
          <button
            ref={toggle}
            type="button"
            onClick={() => setMenuOpen((open) => !open)}
            aria-expanded={menuOpen}
            aria-controls={SIDEBAR_ID}
            aria-label="Toggle menu"
            className="rounded p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
          >
            <Menu aria-hidden="true" className="size-6" />
          </button>
          <div className="ml-auto flex items-center gap-3">
            <NotificationBell />
            <span className="hidden max-w-56 truncate text-sm text-slate-700 sm:inline">{email || 'Admin'}</span>
            <AccountMenu email={email} />
          </div>
        </header>
        <DeploymentBanner />
        <main id="main" className="p-4 sm:p-6 lg:p-8">
          <Suspense fallback={<Spinner className="py-16" label="Loading..." />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
