type Props = { page: number; pageSize: number; total: number; onPage: (page: number) => void };

const buttonClass =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';

/** Previous / Next through the server's pages, with the position and the total. */
export function Pagination({ page, pageSize, total, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <p>{total === 1 ? '1 lead' : `${total.toLocaleString('en-US')} leads`}</p>
      <div className="flex items-center gap-3">
        <button type="button" className={buttonClass} disabled={page <= 1} onClick={() => onPage(Math.min(page - 1, pages))}>
          Previous
        </button>
        <span aria-live="polite">
          Page {Math.min(page, pages)} of {pages}
        </span>
        <button type="button" className={buttonClass} disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </div>
    </nav>
  );
}
