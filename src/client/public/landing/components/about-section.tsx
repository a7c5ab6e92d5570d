import { MapPin, ShieldCheck, Users } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';

const points = (city: string) => [
  { icon: Users, text: 'Over 100 active clients and more than 5,000 reports delivered.' },
  { icon: MapPin, text: `Headquartered in ${city}, with local experts across all 50 states.` },
  { icon: ShieldCheck, text: 'Every report is reviewed by an analyst who knows the local market.' },
];

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
          <p className="mt-4 text-lg leading-relaxed text-slate-600">
            We are a U.S.-based due diligence and underwriting team for real estate investors. We turn a property
            address into a clear answer: what the deal is worth, what could go wrong, and whether the numbers work.
          </p>
          <p className="mt-4 leading-relaxed text-slate-600">
            Investors, lenders and brokers use our reports to move quickly without cutting corners. Your first deal
            analysis is free, so you can see the quality of our work before you commit.
          </p>
        </div>
        <ul className="space-y-4">
          {points(website.city).map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-4 rounded-lg border border-slate-200 bg-slate-50 p-5">
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-md bg-brand-100 text-brand-700">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <p className="leading-relaxed text-slate-700">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
