import { useEffect, useState } from 'react';
import { Menu, X } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { BrandMark } from './brand-mark.tsx';

/** The nav turns solid after the page scrolls more than this (docs/product-rules.md, "Pages"). */
export const NAV_SCROLL_THRESHOLD_PX = 10;

const linkClass = 'rounded-md px-3 py-2 text-sm font-medium text-slate-100 hover:bg-white/10 hover:text-white';
const loginClass = 'rounded-md border border-white/40 px-4 py-2 text-sm font-semibold text-white hover:border-white hover:bg-white/10';

/**
 * Top navigation. On the landing page it starts transparent over the dark hero and turns
 * solid once scrolled; elsewhere it is solid from the start.
 */
export function SiteHeader({ overlay }: { overlay: boolean }) {
  const { name } = useSiteConfig();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_SCROLL_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const solid = !overlay || scrolled || menuOpen;
  const closeMenu = () => setMenuOpen(false);

  return (
    <header
      data-solid={solid ? 'true' : 'false'}
      className={`fixed inset-x-0 top-0 z-50 transition-colors duration-200 ${
        solid ? 'bg-navy-950 shadow-lg shadow-navy-950/20' : 'bg-transparent'
      }`}
    >
      <nav aria-label="Main" className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex h-16 items-center justify-between gap-4">
          <a href="/" className="flex min-w-0 items-center gap-2 rounded-md py-1 font-semibold text-white">
            <BrandMark />
            <span className="truncate text-base sm:text-lg">{name}</span>
          </a>
          <div className="hidden items-center gap-2 md:flex">
            <a href="/#contact" className={linkClass}>
              Contact
            </a>
            <a href="/login" className={loginClass}>
              Admin Login
            </a>
          </div>
          <button
            type="button"
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-white hover:bg-white/10 md:hidden"
            aria-expanded={menuOpen ? 'true' : 'false'}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
          </button>
        </div>
        <div id="mobile-menu" hidden={!menuOpen} className="border-t border-white/10 pt-2 pb-4 md:hidden">
          <ul className="flex flex-col gap-1">
            <li>
              <a href="/#contact" onClick={closeMenu} className={`block ${linkClass} text-base`}>
                Contact
              </a>
            </li>
            <li>
              <a href="/login" onClick={closeMenu} className={`block ${linkClass} text-base`}>
                Admin Login
              </a>
            </li>
          </ul>
        </div>
      </nav>
    </header>
  );
}
