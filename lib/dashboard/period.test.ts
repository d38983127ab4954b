import { describe, expect, it } from "vitest";
import { parseOrderListQuery } from "../admin/orders";
import { addDays, dayRange, parsePeriod, periodBounds, tripoliDay, tripoliMidnight } from "./period";

describe("Libya's days", () => {
  it("puts 21:59 UTC on one Tripoli day and 22:01 UTC on the next (UTC+2, no daylight saving)", () => {
    expect(tripoliDay(new Date("2026-11-24T21:59:00Z"))).toBe("2026-11-24");
    expect(tripoliDay(new Date("2026-11-24T22:01:00Z"))).toBe("2026-11-25");
    expect(tripoliMidnight("2026-11-25")).toEqual(new Date("2026-11-24T22:00:00Z"));
    // Summer too: Libya keeps UTC+2 all year.
    expect(tripoliMidnight("2026-07-01")).toEqual(new Date("2026-06-30T22:00:00Z"));
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("makes periods of whole days ending today, against as many days just before", () => {
    const now = new Date("2026-11-25T08:00:00Z");
    expect(periodBounds("today", now)).toMatchObject({
      current: { from: "2026-11-25", to: "2026-11-25" },
      previous: { from: "2026-11-24", to: "2026-11-24", start: new Date("2026-11-23T22:00:00Z") },
      days: ["2026-11-25"],
    });
    const month = periodBounds("30d", now);
    expect(month.current).toMatchObject({
      from: "2026-10-27",
      to: "2026-11-25",
      end: new Date("2026-11-25T22:00:00Z"),
    });
    expect(month.previous).toMatchObject({ from: "2026-09-27", to: "2026-10-26" });
    expect(month.days).toHaveLength(30);
  });
});

describe("the home's and the list's query strings", () => {
  it("shows the default period for one it does not know, and says so", () => {
    expect(parsePeriod(undefined)).toEqual({ period: "7d", invalid: false });
    expect(parsePeriod("30d")).toEqual({ period: "30d", invalid: false });
    expect(parsePeriod("week")).toEqual({ period: "7d", invalid: true });
    expect(parsePeriod(["today", "7d"])).toEqual({ period: "today", invalid: false });
  });

  it("reads a range of days and names what it cannot read: a day that does not exist, a range backwards or over a year", () => {
    expect(parseOrderListQuery({ paid: "2026-11-19..2026-11-25", created: "2026-11-25" })).toEqual({
      query: { paid: dayRange("2026-11-19", "2026-11-25"), created: dayRange("2026-11-25", "2026-11-25") },
      ignored: [],
    });
    for (const paid of ["2026-02-30", "2026-11-25..2026-11-01", "2024-01-01..2026-01-01", "yesterday", "1..2..3"]) {
      expect(parseOrderListQuery({ paid }), paid).toEqual({ query: {}, ignored: ["paid"] });
    }
    expect(parseOrderListQuery({ gateway: "sadad\u0000", flag: "nonsense" }).ignored).toEqual(["gateway", "flag"]);
  });
});
