import { Mail, MapPin, Phone } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { Island } from '../../island.tsx';

export function ContactSection() {
  const { email, phone, phoneTel, website } = useSiteConfig();
  return (
    <section id="contact" aria-labelledby="contact-heading" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Contact</p>
          <h2 id="contact-heading" className="mt-2 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            Book your free call
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{website.contact_intro}</p>
          <ul className="mt-8 space-y-4 text-slate-700">
            <li className="flex items-center gap-3">
              <MapPin aria-hidden="true" className="size-5 shrink-0 text-brand-600" />
              <span>{website.address}</span>
            </li>
            <li className="flex items-center gap-3">
              <Mail aria-hidden="true" className="size-5 shrink-0 text-brand-600" />
              <a href={`mailto:${email}`} className="break-all text-brand-700 hover:underline">
                {email}
              </a>
            </li>
            <li className="flex items-center gap-3">
              <Phone aria-hidden="true" className="size-5 shrink-0 text-brand-600" />
              <a href={`tel:${phoneTel}`} className="text-brand-700 hover:underline">
                {phone}
              </a>
            </li>
          </ul>
        </div>
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 lg:col-span-3">
          <Island name="lead-form" />
        </div>
      </div>
    </section>
  );
}
