import { Clock, FileText, MapIcon, Users } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';

const REASONS = [
  {
    icon: Users,
    title: 'U.S.-Based Analysts',
    text: 'Your deal is handled by experienced analysts in the United States, not an offshore call center.',
  },
  {
    icon: Clock,
    title: 'Fast Turnaround',
    text: 'Reports within 24 hours, so you can make offers while the deal is still on the table.',
  },
  {
    icon: MapIcon,
    title: 'All 50 States',
    text: 'Coverage in every state, backed by local experts who know each market.',
  },
  {
    icon: FileText,
    title: 'Custom Reports',
    text: 'Custom investor reports that answer the questions your strategy and your lenders ask.',
  },
];

export function WhyChooseSection() {
  const { name } = useSiteConfig();
  return (
    <section id="why-choose" aria-labelledby="why-heading" className="bg-navy-900 py-16 text-white sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="why-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {`Why Choose ${name}`}
          </h2>
          <p className="mt-4 text-lg text-slate-300">Speed and depth, without trading one for the other.</p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {REASONS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-white/10 bg-white/5 p-6">
              <span className="inline-flex size-11 items-center justify-center rounded-lg bg-brand-500 text-white">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 text-lg font-semibold">{title}</h3>
              <p className="mt-2 leading-relaxed text-slate-300">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
