import { MapPin, ShieldCheck, Users } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';

/** The icon of each of the three points, in order; the words are the firm's (Settings → Website). */
const ICONS = [Users, MapPin, ShieldCheck];

export function AboutSection() {
  const { name, website } = useSiteConfig();
  return (
    <section id="about" aria-labelledby="about-heading" className="bg-white py-16 sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-2 lg:items-center">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">About us</p>
          <h2 id="about-heading" className="mt-2 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            {`About ${name}`}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">{website.about_intro}</p>
          <p className="mt-4 leading-relaxed text-slate-600">{website.about_more}</p>
        </div>
        <ul className="space-y-4">
          {website.about_points.map((text, i) => {
            const Icon = ICONS[i % ICONS.length]!;
            return (
              <li key={i} className="flex items-start gap-4 rounded-lg border border-slate-200 bg-slate-50 p-5">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-md bg-brand-100 text-brand-700">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <p className="leading-relaxed text-slate-700">{text}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
