import { Fragment } from 'react';
import { PublicLayout } from '#client/public/layout/public-layout.tsx';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { CONTENT_PAGES, type ContentPageKey } from './content.ts';
import { fillContent, splitAtEmail } from './fill-content.ts';

/** A line of page text with the site values filled in and the email as a link. */
function Line({ text }: { text: string }) {
  const config = useSiteConfig();
  const parts = splitAtEmail(text);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && (
            <a href={`mailto:${config.email}`} className="font-medium text-brand-700 underline">
              {config.email}
            </a>
          )}
          {fillContent(part, config)}
        </Fragment>
      ))}
    </>
  );
}

/** /careers, /privacy, /terms and /cookies: text from content.ts. */
export function ContentPage({ page }: { page: ContentPageKey }) {
  const config = useSiteConfig();
  const doc = CONTENT_PAGES[page];
  return (
    <PublicLayout>
      <div className="bg-gradient-to-br from-navy-950 to-navy-900 pt-16 text-white">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{doc.title}</h1>
          {doc.updated && <p className="mt-3 text-sm text-slate-300">{`Last updated ${doc.updated}`}</p>}
        </div>
      </div>
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <p className="text-lg leading-relaxed text-slate-700">{fillContent(doc.intro, config)}</p>
        {doc.sections.map((section) => (
          <section key={section.heading} className="mt-10">
            <h2 className="text-xl font-semibold text-navy-900">{section.heading}</h2>
            {section.paragraphs?.map((paragraph) => (
              <p key={paragraph} className="mt-3 leading-relaxed text-slate-700">
                <Line text={paragraph} />
              </p>
            ))}
            {section.items && (
              <ul className="mt-3 list-disc space-y-1.5 pl-6 text-slate-700">
                {section.items.map((item) => (
                  <li key={item}>
                    <Line text={item} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
        <p className="mt-12">
          <a href="/" className="font-semibold text-brand-700 hover:underline">
            Back to Home
          </a>
        </p>
      </article>
    </PublicLayout>
  );
}
