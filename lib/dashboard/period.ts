import "server-only";
import { z } from "zod";

/**
 * The merchant's days and the dashboard's periods. A merchant's day is Libya's (Africa/Tripoli, UTC+2 with no daylight
 * saving since 2013), never the server's clock or UTC: an order paid at 23:30 in Tripoli (21:30 UTC) is that day's.
 * Days are written `YYYY-MM-DD`; a period is whole days ending with today (today itself is still going).
 */

export const TIME_ZONE = "Africa/Tripoli";

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

const CALENDAR = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  timeZoneName: "longOffset",
});

function parts(date: Date) {
  return Object.fromEntries(CALENDAR.formatToParts(date).map(({ type, value }) => [type, value]));
}

/** Tripoli's offset from UTC at an instant, in minutes (`GMT+02:00` → 120). */
function offsetMinutes(date: Date): number {
  const match = /([+-])(\d{2}):(\d{2})/.exec(parts(date).timeZoneName ?? "");
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/** The Tripoli day an instant falls on, `YYYY-MM-DD`. */
export function tripoliDay(date: Date): string {
  const part = parts(date);
  return `${part.year}-${part.month}-${part.day}`;
}

/** The instant a Tripoli day begins (its midnight in Tripoli). @throws on a day not written `YYYY-MM-DD`. */
export function tripoliMidnight(day: string): Date {
  const match = DAY.exec(day);
  if (!match) throw new Error(`Not a day: ${day}`);
  const utcMidnight = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // The offset at the guess, then at the midnight it gives (the same unless the zone moved that night).
  const guess = utcMidnight - offsetMinutes(new Date(utcMidnight)) * 60_000;
  return new Date(utcMidnight - offsetMinutes(new Date(guess)) * 60_000);
}

/** The day `n` days after `day` (before it when negative). */
export function addDays(day: string, n: number): string {
  const match = DAY.exec(day);
  if (!match) throw new Error(`Not a day: ${day}`);
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + n));
  return date.toISOString().slice(0, 10);
}

/** A run of whole Tripoli days, `from` to `to` inclusive, and the instants it spans: `[start, end)`. */
export interface DayRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/** The days `from` to `to` inclusive as a {@link DayRange}. */
export function dayRange(from: string, to: string): DayRange {
  return { from, to, start: tripoliMidnight(from), end: tripoliMidnight(addDays(to, 1)) };
}

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
