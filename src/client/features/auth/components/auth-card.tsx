import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The signed-out pages' frame (sign-in, first-run set-up, an invitation): a card in the middle of the page. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-lg">
        <h1 className="text-center text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle ? <p className="mt-2 text-center text-sm text-slate-600">{subtitle}</p> : null}
        {children}
        <HomeLink className="mt-6" />
      </div>
    </main>
  );
}

/** A link that no longer works, said plainly, with the way on. */
export function LinkProblem({ title, message }: { title: string; message: string }) {
  return (
    <AuthCard title={title}>
      <p role="alert" className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
        {message}
      </p>
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="font-medium text-blue-700 underline-offset-2 hover:underline">
          Go to sign-in
        </Link>
      </p>
    </AuthCard>
  );
}

/** "Return to homepage": the public site is another document, so the link loads it. */
export function HomeLink({ className }: { className: string }) {
  return (
    <p className={`${className} text-center text-sm`}>
      <Link to="/" reloadDocument className="text-blue-700 underline-offset-2 hover:underline">
        Return to homepage
      </Link>
    </p>
  );
}
