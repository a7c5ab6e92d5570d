import { FileText, Handshake, Send } from '#client/components/icons.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { STEP_TITLES } from '#shared/website-content';

/** Each step's icon; the titles are the product's, what each step says is the firm's (Settings → Website). */
const ICONS = [Send, FileText, Handshake];

export function HowItWorksSection() {
  const { website } = useSiteConfig();
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="bg-white py-16 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Process</p>
          <h2 id="how-heading" className="mt-2 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            How it works
          </h2>
          <p className="mt-4 text-lg text-slate-600">{website.steps_intro}</p>
        </div>
        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          {STEP_TITLES.map((title, index) => {
            const Icon = ICONS[index]!;
            return (
              <li key={title} className="relative rounded-xl border border-slate-200 bg-slate-50 p-6">
                <div className="flex items-center gap-3">
                  <span className="inline-flex size-11 items-center justify-center rounded-full bg-brand-600 text-white">
                    <Icon aria-hidden="true" className="size-5" />
                  </span>
                  <span className="text-sm font-semibold text-brand-700">{`Step ${index + 1}`}</span>
                </div>
                <h3 className="mt-4 text-xl font-semibold text-navy-900">{title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{website.steps[index]}</p>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
