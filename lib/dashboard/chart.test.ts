import { describe, expect, it } from "vitest";
import { CHART, chartBars, labelledDays } from "./chart";

const week = [0, 4_000, 0, 500, 0, 1_000, 3_750].map((salesMinor, k) => ({
  day: `2026-11-${19 + k}`,
  salesMinor,
  orders: salesMinor > 0 ? 1 : 0,
}));

describe("the chart of paid sales per day", () => {
  it("has one bar per day, the best day the tallest, a day without sales flat", () => {
    const bars = chartBars(week, false);
    expect(bars).toHaveLength(7);
    const plot = CHART.height - CHART.top - CHART.bottom;
    expect(bars[1]).toMatchObject({ day: "2026-11-20", salesMinor: 4_000, height: plot, y: CHART.top });
    expect(bars[6]!.height).toBeCloseTo((3_750 / 4_000) * plot, 0);
    expect(bars[0]!.height).toBe(0);
    // Oldest to newest, left to right, inside the box.
    expect(bars.map((bar) => bar.x)).toEqual([...bars.map((bar) => bar.x)].sort((a, b) => a - b));
    expect(bars.at(-1)!.x + bars.at(-1)!.width).toBeLessThanOrEqual(CHART.width);
  });

  it("mirrors time in Arabic: the newest day on the left, the oldest on the right", () => {
    const ltr = chartBars(week, false);
    const rtl = chartBars(week, true);
    expect(rtl.map((bar) => bar.x)).toEqual([...ltr.map((bar) => bar.x)].reverse());
    expect(rtl.map((bar) => bar.height)).toEqual(ltr.map((bar) => bar.height));
  });

  it("draws nothing tall for a period without sales, and labels the first and last day", () => {
    expect(
      chartBars(
        week.map((d) => ({ ...d, salesMinor: 0 })),
        false,
      ).every((bar) => bar.height === 0),
    ).toBe(true);
    expect(labelledDays(7)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
    const month = labelledDays(30);
    expect(month.has(0) && month.has(29)).toBe(true);
    expect(month.size).toBeLessThanOrEqual(7);
    expect(labelledDays(1)).toEqual(new Set([0]));
  });
});
