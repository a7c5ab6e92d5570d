import { FileText, Handshake, Send } from '#client/components/icons.tsx';

const STEPS = [
  {
    icon: Send,
    title: 'Submit a deal',
    text: 'Send us the property and your plans through the form below. It takes two minutes.',
  },
  {
    icon: FileText,
    title: 'Get your report',
    text: 'Within 24 hours you receive a detailed report, reviewed by a local expert.',
  },
  {
    icon: Handshake,
    title: 'Close with confidence',
    text: 'Make your offer knowing the numbers, the risks and the market behind them.',
  },
];

export function HowItWorksSection() {
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="bg-white py-16 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Process</p>
          <h2 id="how-heading" className="mt-2 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            How it works
          </h2>
          <p className="mt-4 text-lg text-slate-600">Three steps from address to decision.</p>
        </div>
        <ol className="mt-12 grid gap-6 md:grid-cols-3">
          {STEPS.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="relative rounded-xl border border-slate-200 bg-slate-50 p-6">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 items-center justify-center rounded-full bg-brand-600 text-white">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="text-sm font-semibold text-brand-700">{`Step ${index + 1}`}</span>
              </div>
              <h3 className="mt-4 text-xl font-semibold text-navy-900">{title}</h3>
              <p className="mt-2 leading-relaxed text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
