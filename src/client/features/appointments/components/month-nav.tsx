import { format } from 'date-fns';
import { ChevronLeft, ChevronRight } from '#client/components/icons.tsx';

type Props = { month: Date; onPrevious: () => void; onToday: () => void; onNext: () => void; titleId: string };

const navButton = 'inline-flex items-center justify-center rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-700 hover:bg-slate-50';

/** Previous / Today / next and the month's title ("MMMM yyyy"). */
export function MonthNav({ month, onPrevious, onToday, onNext, titleId }: Props) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900" aria-live="polite">
        {format(month, 'MMMM yyyy')}
      </h2>
      <div className="flex items-center gap-2">
        <button type="button" onClick={onPrevious} aria-label="Previous month" className={`${navButton} size-9`}>
          <ChevronLeft aria-hidden="true" className="size-4" />
        </button>
        <button type="button" onClick={onToday} className={`${navButton} h-9 px-3`}>
          Today
        </button>
        <button type="button" onClick={onNext} aria-label="Next month" className={`${navButton} size-9`}>
          <ChevronRight aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}
