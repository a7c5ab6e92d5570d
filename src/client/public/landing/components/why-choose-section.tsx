import { Clock, FileText, MapIcon, Users } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';

/** The icon of each of the four cards, in order; the words are the firm's (Settings → Website). */
const ICONS = [Users, Clock, MapIcon, FileText];

export function WhyChooseSection() {
  const { name, website } = useSiteConfig();
  return (
    <section id="why-choose" aria-labelledby="why-heading" className="bg-navy-900 py-16 text-white sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="why-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {`Why Choose ${name}`}
          </h2>
          <p className="mt-4 text-lg text-slate-300">{website.why_intro}</p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {website.reasons.map(({ title, text }, i) => {
            const Icon = ICONS[i % ICONS.length]!;
            return (
              <li key={i} className="rounded-xl border border-white/10 bg-white/5 p-6">
                <span className="inline-flex size-11 items-center justify-center rounded-lg bg-brand-500 text-white">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 leading-relaxed text-slate-300">{text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
