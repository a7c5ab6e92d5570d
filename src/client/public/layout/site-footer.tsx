import { Mail, MapPin, Phone } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { BrandMark } from './brand-mark.tsx';

const COMPANY_LINKS = [
  { href: '/#about', label: 'About' },
  { href: '/#services', label: 'Services' },
  { href: '/careers', label: 'Careers' },
  { href: '/login', label: 'Admin Login' },
];

const LEGAL_LINKS = [
  { href: '/privacy', label: 'Privacy Policy' },
  { href: '/terms', label: 'Terms of Service' },
  { href: '/cookies', label: 'Cookie Policy' },
];

const headingClass = 'text-sm font-semibold tracking-wide text-white uppercase';
const linkClass = 'rounded-sm text-slate-300 hover:text-white hover:underline';

export function SiteFooter() {
  const { name, email, phone, phoneTel, year, website } = useSiteConfig();
  return (
    <footer className="bg-navy-950 text-sm text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <a href="/" className="inline-flex items-center gap-2 rounded-md font-semibold text-white">
            <BrandMark />
            <span className="text-base">{name}</span>
          </a>
          <p className="mt-4 max-w-xs leading-relaxed text-slate-400">{website.tagline}</p>
        </div>
        <FooterLinks heading="Company" links={COMPANY_LINKS} />
        <div>
          <h2 className={headingClass}>Contact</h2>
          <ul className="mt-4 space-y-3">
            <li className="flex items-start gap-2">
              <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-400" />
              <span>{website.city}</span>
            </li>
            <li className="flex items-start gap-2">
              <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-400" />
              <a href={`mailto:${email}`} className={`${linkClass} break-all`}>
                {email}
              </a>
            </li>
            <li className="flex items-start gap-2">
              <Phone aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-400" />
              <a href={`tel:${phoneTel}`} className={linkClass}>
                {phone}
              </a>
            </li>
          </ul>
        </div>
        <FooterLinks heading="Legal" links={LEGAL_LINKS} />
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-slate-400 sm:px-6">{`© ${year} ${name}. All rights reserved.`}</p>
      </div>
    </footer>
  );
}

function FooterLinks({ heading, links }: { heading: string; links: readonly { href: string; label: string }[] }) {
  return (
    <div>
      <h2 className={headingClass}>{heading}</h2>
      <ul className="mt-4 space-y-3">
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} className={linkClass}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
