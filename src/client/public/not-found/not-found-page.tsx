import { ArrowLeft } from '#client/components/icons.tsx';
import { PublicLayout } from '#client/public/layout/public-layout.tsx';

/** Any unknown path (docs/product-rules.md, "Pages"): served as 404.html with HTTP status 404. */
export function NotFoundPage() {
  return (
    <PublicLayout>
      <div className="flex min-h-[70vh] items-center justify-center bg-slate-50 px-4 pt-24 pb-16">
        <div className="max-w-md text-center">
          <p className="text-6xl font-bold text-brand-600">404</p>
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-navy-900">Page Not Found</h1>
          <p className="mt-4 text-lg text-slate-600">The page you are looking for doesn't exist or has been moved.</p>
          <a
            href="/"
            className="mt-8 inline-flex items-center gap-2 rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Home
          </a>
        </div>
      </div>
    </PublicLayout>
  );
}
