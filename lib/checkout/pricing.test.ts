import { describe, expect, it } from "vitest";
import { priceCheckout } from "./pricing";

describe("priceCheckout", () => {
  it("adds the zone's fee to the lines, and waives it from the zone's free-above total of the lines on", () => {
    const benghazi = { feeMinor: 3_500, freeAboveMinor: 20_000 };
    expect(priceCheckout(19_999, benghazi)).toEqual({
      linesMinor: 19_999,
      deliveryFeeMinor: 3_500,
      totalMinor: 23_499,
    });
    expect(priceCheckout(20_000, benghazi)).toEqual({ linesMinor: 20_000, deliveryFeeMinor: 0, totalMinor: 20_000 });
    expect(priceCheckout(1_000_000, { feeMinor: 3_500, freeAboveMinor: null }).deliveryFeeMinor).toBe(3_500);
  });

  it("charges the lines alone for pickup or a cart with nothing to deliver", () => {
    expect(priceCheckout(4_250)).toEqual({ linesMinor: 4_250, deliveryFeeMinor: 0, totalMinor: 4_250 });
  });

  it("adds the cash fee as its own line when the checkout is paid in cash, and nothing of it when paid online", () => {
    const misrata = { feeMinor: 2_000, freeAboveMinor: null };
    expect(priceCheckout(7_750, misrata, 500)).toEqual({
      linesMinor: 7_750,
      deliveryFeeMinor: 2_000,
      cashFeeMinor: 500,
      totalMinor: 10_250,
    });
    expect(priceCheckout(7_750, misrata, 0).totalMinor).toBe(9_750);
    expect(priceCheckout(7_750, misrata)).not.toHaveProperty("cashFeeMinor");
  });

  it("refuses an amount that is not whole minor units", () => {
    expect(() => priceCheckout(12.5, { feeMinor: 100, freeAboveMinor: null })).toThrow(RangeError);
  });
});
