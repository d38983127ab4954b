import { describe, expect, it } from "vitest";
import { formatMoney, fromDecimalAmount, multiply, parseTypedAmount, sum, toWireAmount } from "./money";

describe("toWireAmount", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [50, "0.50"],
    [1250, "12.50"],
    [100000, "1000.00"],
    [1_000_000_000, "10000000.00"],
  ])("%i minor units → %s", (minor, wire) => {
    expect(toWireAmount(minor)).toBe(wire);
  });

  it.each([1.5, -1, Number.NaN, Infinity, 1_000_000_001])("refuses %s", (bad) => {
    expect(() => toWireAmount(bad)).toThrow(RangeError);
  });

  it("round-trips every cent of the first 100 dinars exactly", () => {
    for (let minor = 0; minor <= 10_000; minor++) expect(fromDecimalAmount(toWireAmount(minor))).toBe(minor);
  });
});

describe("arithmetic", () => {
  it("multiplies and sums in integers (0.1 + 0.2 stays exact)", () => {
    expect(sum([10, 20])).toBe(30);
    expect(toWireAmount(sum([multiply(1999, 3), multiply(1, 1)]))).toBe("59.98");
  });
  it("refuses fractional quantities and overflow", () => {
    expect(() => multiply(100, 1.5)).toThrow(RangeError);
    expect(() => multiply(1_000_000_000, 2)).toThrow(RangeError);
  });
});

describe("formatMoney", () => {
  it("shows two decimals and the currency in English", () => {
    expect(formatMoney(1250, "en")).toMatch(/LYD\s?12\.50/);
  });
  it("formats in Arabic too", () => {
    const text = formatMoney(1250, "ar");
    expect(text).toMatch(/د\.ل/);
  });
});

describe("fromDecimalAmount (the webhook's amount)", () => {
  it.each([
    [103.75, 10375],
    ["103.75", 10375],
    [103.7, 10370],
    [100, 10000],
    ["0.05", 5],
    [0, 0],
    [0.3, 30],
  ])("reads %j as %i minor units", (value, minor) => {
    expect(fromDecimalAmount(value)).toBe(minor);
  });
  it.each([103.755, -1, Number.NaN, Infinity, 1e21, 0.1 + 0.2, "12,50", "1e3", " ", "", "12.", ".5", "0x10"])(
    "refuses %j",
    (value) => {
      expect(fromDecimalAmount(value)).toBeNull();
    },
  );
});

describe("parseTypedAmount: an amount as a person types it (a price, a row of the dashboard's list)", () => {
  it.each([
    ["103.75", 10375],
    ["103,75", 10375],
    ["103.7", 10370],
    ["103", 10300],
    ["0.05", 5],
    ["1,234.50", 123450],
    ["1.234,50", 123450],
    ["1 234,50", 123450],
    ["1\u00a0234.50", 123450],
    ["1'234.50", 123450],
    ["1,234,567", 123456700],
    ["LYD 103.75", 10375],
    ["103.75 LYD", 10375],
    ["\u200f١٠٣٫٧٥ د.ل.\u200f", 10375],
    ["+103.75", 10375],
  ])("reads %j as %i minor units", (text, minor) => {
    expect(parseTypedAmount(text)).toBe(minor);
  });

  it.each([
    ["", "missing"],
    ["lots", "amount"],
    ["12.5.0", "amount"],
    ["1,23,4", "amount"],
    ["1.234,567.89", "amount"],
    ["103.", "amount"],
    [".50", "amount"],
    ["1,234", "amount_ambiguous"],
    ["1.234", "amount_ambiguous"],
    ["103.7555", "amount_decimals"],
    ["103.755", "amount_ambiguous"],
    ["-5", "amount_negative"],
    ["(5.00)", "amount_negative"],
    ["99999999999", "amount"],
  ])("refuses %j: %s", (text, problem) => {
    expect(parseTypedAmount(text)).toBe(problem);
  });
});
