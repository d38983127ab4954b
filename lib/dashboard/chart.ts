import type { DaySales } from "./figures";

/**
 * The geometry of the home's chart of paid sales per day (components/admin/sales-chart.tsx draws it as SVG on the
 * server: no chart code reaches the browser). One bar per day of the period, in a box of {@link CHART} units, the
 * tallest bar the period's best day. Time runs the way the reader reads: left to right in English, right to left in
 * Arabic (the x axis mirrored), so the newest day is always at the end of the line.
 */

export const CHART = { width: 600, height: 200, top: 16, bottom: 24 } as const;

export interface Bar {
  day: string;
  salesMinor: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Where the bar's middle is, for its day's label. */
  centre: number;
}

/**
 * A bar per day, in the days' order (oldest first).
 * @param days the period's days with their paid sales in minor units. @param rtl mirror the x axis (Arabic).
 */
export function chartBars(days: readonly DaySales[], rtl: boolean): Bar[] {
  const slot = CHART.width / Math.max(days.length, 1);
  const gap = Math.min(slot * 0.2, 8);
  const plot = CHART.height - CHART.top - CHART.bottom;
  const best = Math.max(0, ...days.map((d) => d.salesMinor));
  return days.map(({ day, salesMinor }, k) => {
    const position = rtl ? days.length - 1 - k : k;
    // A day with any sale stays visible (at least a unit tall); a day with none has no height.
    const height = best === 0 || salesMinor === 0 ? 0 : Math.max(1, (salesMinor / best) * plot);
    const x = position * slot + gap / 2;
    return {
      day,
      salesMinor,
      x: round(x),
      y: round(CHART.top + plot - height),
      width: round(slot - gap),
      height: round(height),
      centre: round(x + (slot - gap) / 2),
    };
  });
}

/** Which days get a label under the axis: all of a week, about every fifth of a month (always the first and last). */
export function labelledDays(count: number): Set<number> {
  const step = count <= 7 ? 1 : Math.ceil(count / 6);
  const labelled = new Set<number>([0, count - 1]);
  for (let k = 0; k < count; k += step) if (count - 1 - k >= step / 2 || k === count - 1) labelled.add(k);
  return labelled;
}

const round = (value: number) => Math.round(value * 10) / 10;
