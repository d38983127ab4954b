import "server-only";
import { z } from "zod";
import { addDays, dayRange, tripoliDay, type DayRange } from "../time";

/**
 * The dashboard's periods, and the ranges of days the orders list filters by: whole merchant's days (lib/time.ts), a
 * period ending with today (today itself is still going).
 */

/** The periods the dashboard shows, by the number of days each covers (today included). */
const PERIOD_DAYS = { today: 1, "7d": 7, "30d": 30 } as const;
export type Period = keyof typeof PERIOD_DAYS;
export const PERIODS = Object.keys(PERIOD_DAYS) as Period[];
const DEFAULT_PERIOD: Period = "7d";

/**
 * Reads `?period=`: one of {@link PERIODS}; absent gives {@link DEFAULT_PERIOD}, and so does anything else, with
 * `invalid` set so that the page can say so.
 */
export function parsePeriod(value: string | string[] | undefined): { period: Period; invalid: boolean } {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === "") return { period: DEFAULT_PERIOD, invalid: false };
  return (PERIODS as string[]).includes(raw)
    ? { period: raw as Period, invalid: false }
    : { period: DEFAULT_PERIOD, invalid: true };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A period at `now`: its days (today last), and the as many days just before it, to compare with. */
export interface PeriodBounds {
  period: Period;
  current: DayRange;
  previous: DayRange;
  /** Every day of the current period, oldest first. */
  days: string[];
}

/**
 * The period's days at `now`: `today` is today's Tripoli day, compared with yesterday; `7d` and `30d` are the last 7
 * or 30 days including today, compared with the 7 or 30 days before them.
 */
export function periodBounds(period: Period, now = new Date()): PeriodBounds {
  const length = PERIOD_DAYS[period];
  const today = tripoliDay(now);
  const from = addDays(today, 1 - length);
  return {
    period,
    current: dayRange(from, today),
    previous: dayRange(addDays(from, -length), addDays(from, -1)),
    days: Array.from({ length }, (_, k) => addDays(from, k)),
  };
}

/**
 * A range of days as the orders list's query string writes it: `2026-11-20..2026-11-26` (one day: `2026-11-26`), both
 * days included. Refuses anything else, a range that ends before it starts, and one longer than a year.
 */
export const dayRangeSchema = z
  .string()
  .max(30)
  .transform((value, ctx) => {
    const [from = "", to = from, ...rest] = value.split("..");
    const valid = (day: string) => DAY.test(day) && addDays(day, 0) === day;
    if (rest.length > 0 || !valid(from) || !valid(to) || to < from || addDays(from, 366) < to) {
      ctx.addIssue({ code: "custom", message: "range" });
      return z.NEVER;
    }
    return dayRange(from, to);
  });

/** A {@link DayRange} as {@link dayRangeSchema} reads it. */
export function formatDayRange({ from, to }: Pick<DayRange, "from" | "to">): string {
  return from === to ? from : `${from}..${to}`;
}
