import { CHART, chartBars, labelledDays } from "@/lib/dashboard/chart";
import type { DaySales } from "@/lib/dashboard/figures";

/**
 * Paid sales per day as an SVG bar chart, drawn on the server (a server component: no chart code reaches the browser),
 * time running the reader's way (lib/dashboard/chart.ts mirrors it in Arabic). The picture is one image with a name;
 * the numbers themselves are in the table the page puts beside it.
 */
export function SalesChart({
  days,
  rtl,
  label,
  dayLabel,
  best,
}: {
  days: readonly DaySales[];
  rtl: boolean;
  /** The chart's accessible name. */
  label: string;
  /** A day's short label under the axis (e.g. "25 Nov"). */
  dayLabel: (day: string) => string;
  /** The best day's sales, formatted, written at the top of the scale. */
  best: string;
}) {
  const bars = chartBars(days, rtl);
  const labelled = labelledDays(days.length);
  const baseline = CHART.height - CHART.bottom;
  return (
    <svg
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      role="img"
      aria-label={label}
      className="h-auto w-full text-brand-700"
      data-testid="sales-chart"
    >
      <line x1={0} x2={CHART.width} y1={CHART.top} y2={CHART.top} className="stroke-stone-200" strokeDasharray="4 4" />
      <text
        x={rtl ? CHART.width : 0}
        y={CHART.top - 4}
        textAnchor={rtl ? "end" : "start"}
        className="fill-stone-600 text-[13px]"
      >
        {best}
      </text>
      {bars.map((bar, k) => (
        <g key={bar.day}>
          <rect
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            rx={2}
            className="fill-current"
            data-day={bar.day}
            data-sales-minor={bar.salesMinor}
          />
          {labelled.has(k) && (
            <text x={bar.centre} y={CHART.height - 6} textAnchor="middle" className="fill-stone-600 text-[13px]">
              {dayLabel(bar.day)}
            </text>
          )}
        </g>
      ))}
      <line x1={0} x2={CHART.width} y1={baseline} y2={baseline} className="stroke-stone-400" />
    </svg>
  );
}
