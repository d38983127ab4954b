/**
 * The merchant's time: Libya's (Africa/Tripoli; UTC+2 with no daylight saving since 2013), never the server's clock or
 * UTC. A merchant's day is Tripoli's: an order paid at 23:30 in Tripoli (21:30 UTC) is that day's. Days are written
 * `YYYY-MM-DD`. E-mails, the back office's pages and its exports show times in this zone.
 */

/** The merchant's time zone (IANA name), for `Intl`, next-intl and PostgreSQL's `at time zone`. */
export const TIME_ZONE = "Africa/Tripoli";

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

/** The day `n` days after `day` (before it when negative). @throws on a day not written `YYYY-MM-DD`. */
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

const TRIPOLI = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/**
 * A time as the merchant reads it in a spreadsheet: Libya's wall clock (Africa/Tripoli) to the second, written
 * `2026-11-25 21:30:00`, the one way Excel and LibreOffice both read as a date and time in every locale (an ISO 8601
 * time with `T` and an offset stays text in both). No offset: every time is Libya's, UTC+2 since 2013.
 */
export function tripoliTime(date: Date): string {
  const part = Object.fromEntries(TRIPOLI.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/**
 * Whole minutes from `now` until `at` (both ms since the epoch, or `at` a Date), at least 1: the "try again in N
 * minutes" a customer is told when a budget or a hold frees up then.
 */
export function minutesUntil(at: Date | number, now = Date.now()): number {
  return Math.max(1, Math.ceil((Number(at) - now) / 60_000));
}
