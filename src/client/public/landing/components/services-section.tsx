import { ChartColumn, ClipboardList, FileSearch, FileText } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';

/** The icon of each of the four service cards, in order; the words are the firm's (Settings → Website). */
const ICONS = [ChartColumn, FileSearch, ClipboardList, FileText];

export function ServicesSection() {
  const { website } = useSiteConfig();
  return (
    <section id="services" aria-labelledby="services-heading" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Services</p>
          <h2 id="services-heading" className="mt-2 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            Everything you need to decide on a deal
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{website.services_intro}</p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2">
          {website.services.map(({ title, text }, i) => {
            const Icon = ICONS[i % ICONS.length]!;
            return (
              <li key={i} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <span className="inline-flex size-11 items-center justify-center rounded-lg bg-brand-600 text-white">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-navy-900">{title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
