import { landingTitle, type WebsiteContent } from '#shared/website-content';

/**
 * The website as typed, before saving: how a search result shows the home page, the top of
 * the page with its figures, the services, and the footer's contact block.
 */
export function WebsitePreview({ content }: { content: WebsiteContent }) {
  return (
    <aside aria-label="Preview" className="min-w-0 xl:sticky xl:top-4 xl:self-start">
      <p className="mb-2 text-sm font-medium text-slate-700">Preview (as you type)</p>
      <div className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <p className="text-xs text-slate-600">In search results</p>
        <p className="mt-1 text-lg break-words text-blue-800">{landingTitle(content.site_name, content.page_title)}</p>
        <p className="mt-1 text-sm break-words text-slate-700">{content.meta_description}</p>
      </div>
      <div className="overflow-hidden rounded-lg border border-slate-200 shadow-sm">
        <div className="bg-slate-900 p-5 text-white">
          <p className="font-semibold break-words">{content.site_name}</p>
          <p className="mt-4 inline-block rounded-full border border-white/20 px-2 py-0.5 text-xs break-words text-slate-200">
            {content.hero_badge}
          </p>
          <p className="mt-3 text-2xl font-bold tracking-tight break-words">{content.headline}</p>
          <p className="mt-3 text-sm leading-relaxed break-words text-slate-200">{content.subheadline}</p>
          <ul className="mt-5 grid grid-cols-2 gap-2">
            {content.stats.map((s, i) => (
              <li key={i} className="rounded-md border border-white/20 bg-white/5 p-2">
                <p className="text-lg font-bold break-words">{s.value}</p>
                <p className="text-xs break-words text-slate-300">{s.label}</p>
              </li>
            ))}
          </ul>
        </div>
        <ul className="grid gap-3 bg-slate-50 p-4">
          {content.services.map((s, i) => (
            <li key={i} className="rounded-md border border-slate-200 bg-white p-3">
              <p className="font-semibold break-words text-slate-900">{s.title}</p>
              <p className="mt-1 text-sm break-words text-slate-600">{s.text}</p>
            </li>
          ))}
        </ul>
        <div className="space-y-1 bg-slate-800 p-4 text-sm text-slate-200">
          <p className="break-words text-slate-300">{content.tagline}</p>
          <p className="break-words">{content.address}</p>
          <p className="break-words">{content.city}</p>
          <p className="break-words">{`${content.email} · ${content.phone}`}</p>
          <p className="break-words text-slate-300">{`Terms of Service: between you and ${content.legal_entity}`}</p>
        </div>
      </div>
    </aside>
  );
}
