import { describe, expect, it } from "vitest";
import { addDays, tripoliDay, tripoliMidnight, tripoliTime } from "./time";

describe("Libya's days", () => {
  it("puts 21:59 UTC on one Tripoli day and 22:01 UTC on the next (UTC+2, no daylight saving)", () => {
    expect(tripoliDay(new Date("2026-11-24T21:59:00Z"))).toBe("2026-11-24");
    expect(tripoliDay(new Date("2026-11-24T22:01:00Z"))).toBe("2026-11-25");
    expect(tripoliMidnight("2026-11-25")).toEqual(new Date("2026-11-24T22:00:00Z"));
    // Summer too: Libya keeps UTC+2 all year.
    expect(tripoliMidnight("2026-07-01")).toEqual(new Date("2026-06-30T22:00:00Z"));
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("writes each time on Libya's clock of that date, as spreadsheets read a date and time", () => {
    expect(tripoliTime(new Date("2026-06-01T23:59:59.999Z"))).toBe("2026-06-02 01:59:59");
    // Libya kept +01:00 from November 2012 to March 2013.
    expect(tripoliTime(new Date("2013-01-15T12:00:00Z"))).toBe("2013-01-15 13:00:00");
  });
});
