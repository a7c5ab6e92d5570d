import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * The little the Analytics charts need from a chart library, drawn as plain SVG: a width that
 * follows the card, a value axis with round ticks and dashed grid lines, and a category axis
 * whose labels thin out so they never overlap. Each chart keeps an accessible table beside it.
 */

export const CHART_HEIGHT = 288;
/** Room for the value labels on the left and the category labels below. */
export const MARGIN = { top: 8, right: 8, bottom: 24, left: 36 } as const;
const TICK_TEXT = { fontSize: 12, fill: '#475569' } as const;

/** Width of a layout-less environment (server render, happy-dom): a typical card's. */
const FALLBACK_WIDTH = 720;

/** The element's content width, following resizes (the card is as wide as the page allows). */
export function useElementWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Whole-number ticks from 0 that cover `max` in about `count` steps of 1, 2 or 5 × 10ⁿ
 * (a chart of counts never shows 2.5 visitors). An all-zero series still gets an axis: 0 to 4.
 */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1, 2, 3, 4];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(v);
  return ticks;
}

/** Which of `count` category labels to print, each about `labelWidth` px wide, in `width` px: every n-th, always the first. */
export function labelStep(count: number, width: number, labelWidth: number): number {
  if (count <= 1 || width <= 0) return 1;
  return Math.max(1, Math.ceil((count * labelWidth) / width));
}

export type Plot = { width: number; height: number; y: (value: number) => number; ticks: number[] };

/** The plot area inside the margins, and the value scale for `max`. */
export function plotFor(width: number, max: number): Plot {
  const ticks = niceTicks(max);
  const top = ticks.at(-1)!;
  const plotWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const plotHeight = CHART_HEIGHT - MARGIN.top - MARGIN.bottom;
  return { width: plotWidth, height: plotHeight, ticks, y: (v) => MARGIN.top + plotHeight - (v / top) * plotHeight };
}

/** Dashed grid lines and the value labels at each tick. */
export function ValueAxis({ plot }: { plot: Plot }) {
  return (
    <g aria-hidden="true">
      {plot.ticks.map((t) => (
        <g key={t}>
          <line x1={MARGIN.left} x2={MARGIN.left + plot.width} y1={plot.y(t)} y2={plot.y(t)} stroke="#e2e8f0" strokeDasharray="3 3" />
          <text x={MARGIN.left - 6} y={plot.y(t)} dy="0.32em" textAnchor="end" {...TICK_TEXT}>
            {t.toLocaleString('en-US')}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The category labels under the plot at their x positions, thinned to fit. */
export function CategoryAxis({ plot, labels, x, step }: { plot: Plot; labels: string[]; x: (index: number) => number; step: number }) {
  return (
    <g aria-hidden="true">
      <line
        x1={MARGIN.left}
        x2={MARGIN.left + plot.width}
        y1={CHART_HEIGHT - MARGIN.bottom}
        y2={CHART_HEIGHT - MARGIN.bottom}
        stroke="#cbd5e1"
      />
      {labels.map((label, i) =>
        i % step === 0 ? (
          <text key={i} x={x(i)} y={CHART_HEIGHT - MARGIN.bottom + 16} textAnchor="middle" {...TICK_TEXT}>
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** The index of the category nearest to a pointer's x, inside the plot; undefined outside it. */
export function indexAt(clientX: number, svg: SVGSVGElement, count: number, x: (index: number) => number): number | undefined {
  const left = svg.getBoundingClientRect().left;
  const px = clientX - left;
  if (count === 0 || px < MARGIN.left - 4) return undefined;
  let best = 0;
  for (let i = 1; i < count; i++) if (Math.abs(x(i) - px) < Math.abs(x(best) - px)) best = i;
  return best;
}

/** A tooltip box over the chart at the hovered category, kept inside the card. */
export function ChartTooltip({ x, chartWidth, testId, children }: { x: number; chartWidth: number; testId?: string; children: ReactNode }) {
  const boxWidth = 176;
  const left = Math.min(Math.max(0, x + 12), Math.max(0, chartWidth - boxWidth));
  return (
    <div
      data-testid={testId}
      role="presentation"
      className="pointer-events-none absolute top-2 z-10 w-44 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md"
      style={{ left }}
    >
      {children}
    </div>
  );
}

/** The chart's drawing surface: `count` categories at `x`; tells `onActive` which one the pointer is over (undefined on leaving). */
export function ChartSvg({
  width,
  count,
  x,
  onActive,
  children,
}: {
  width: number;
  count: number;
  x: (index: number) => number;
  onActive: (index: number | undefined) => void;
  children: ReactNode;
}) {
  return (
    <svg
      width={width}
      height={CHART_HEIGHT}
      className="block"
      onPointerMove={(e) => onActive(indexAt(e.clientX, e.currentTarget, count, x))}
      onPointerLeave={() => onActive(undefined)}
    >
      {children}
    </svg>
  );
}
