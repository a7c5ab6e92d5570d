import { ChevronLeft, ChevronRight } from '#client/components/icons.tsx';

type Props = {
  /** "November 2026", "Nov 22 – 28, 2026". */
  title: string;
  labels: { previous: string; next: string };
  onPrevious: () => void;
  onToday: () => void;
  onNext: () => void;
  titleId: string;
};

const navButton =
  'inline-flex items-center justify-center rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-700 hover:bg-slate-50';

/** The view's title (a month, or a span of days) and Previous / Today / Next. */
export function ViewNav({ title, labels, onPrevious, onToday, onNext, titleId }: Props) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900" aria-live="polite">
        {title}
      </h2>
      <div className="flex items-center gap-2">
        <button type="button" onClick={onPrevious} aria-label={labels.previous} className={`${navButton} size-9`}>
          <ChevronLeft aria-hidden="true" className="size-4" />
        </button>
        <button type="button" onClick={onToday} className={`${navButton} h-9 px-3`}>
          Today
        </button>
        <button type="button" onClick={onNext} aria-label={labels.next} className={`${navButton} size-9`}>
          <ChevronRight aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}
