import { describe, expect, it } from "vitest";
import { parseOrderListQuery } from "../admin/orders";
import { dayRange } from "../time";
import { parsePeriod, periodBounds } from "./period";

describe("the dashboard's periods", () => {
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
