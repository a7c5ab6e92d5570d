import { BadgeCheck } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { statPartName } from '#shared/website-content';
import { Island } from '../../island.tsx';
import { OptionalPart } from '../../optional-part.tsx';

export function HeroSection() {
  const { website } = useSiteConfig();
  return (
    <section
      aria-labelledby="hero-heading"
      className="relative overflow-hidden bg-gradient-to-br from-navy-950 via-navy-900 to-brand-800 pt-16 text-white"
    >
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-24 lg:py-28">
        <p className="inline-flex items-center gap-2 rounded-full border border-white/20 bg-white/10 px-3 py-1 text-sm font-medium text-brand-100">
          <BadgeCheck aria-hidden="true" className="size-4" />
          {website.hero_badge}
        </p>
        <h1 id="hero-heading" className="mt-6 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
          {website.headline}
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-slate-200">{website.subheadline}</p>
        <ul className="mt-6 space-y-2 text-slate-100">
          {website.highlights.map((item, i) => (
            <li key={i} className="flex items-start gap-2">
              <BadgeCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-300" />
              <span>{item}</span>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-col gap-3 sm:flex-row">
          <Island name="get-started" />
          <a
            href="#how-it-works"
            className="inline-flex items-center justify-center rounded-md border border-white/40 px-6 py-3 text-base font-semibold text-white hover:bg-white/10"
          >
            How it works
          </a>
        </div>
        {/* One to four figures (Settings → Website): two a row on a phone, one row from sm up. */}
        <ul className="mt-14 flex flex-wrap gap-4">
          {website.stats.map((stat, i) => (
            <OptionalPart key={i} name={statPartName(i)}>
              <li className="min-w-0 flex-1 basis-[calc(50%-0.5rem)] rounded-lg border border-white/15 bg-white/5 p-4 sm:max-w-72 sm:basis-0">
                <p className="text-2xl font-bold break-words text-white sm:text-3xl">{stat.value}</p>
                <p className="mt-1 text-sm break-words text-slate-300">{stat.label}</p>
              </li>
            </OptionalPart>
          ))}
        </ul>
      </div>
    </section>
  );
}
