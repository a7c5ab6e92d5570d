import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Props = { title: string; link: { to: string; label: string }; children: ReactNode };

/** A titled box of the Overview with a link to the full page. */
export function OverviewPanel({ title, link, children }: Props) {
  const id = `${title.toLowerCase().replace(/\s+/g, '-')}-heading`;
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <Link to={link.to} className="text-sm font-medium text-blue-700 hover:underline">
          {link.label}
        </Link>
      </div>
      <div className="mt-2">{children}</div>
    </section>
  );
}
