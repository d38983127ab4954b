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

  it("takes a promo code's discount off as its own line: a percentage of the lines rounded down, a fixed amount, or free delivery", () => {
    const tripoli = { feeMinor: 1_500, freeAboveMinor: null };
    const eid10 = { code: "EID10", kind: "percent", percent: 10, amountMinor: null } as const;
    // 10 % of 42.50 is 4.25 exactly; the delivery fee is not discounted.
    expect(priceCheckout(4_250, tripoli, undefined, eid10)).toEqual({
      linesMinor: 4_250,
      deliveryFeeMinor: 1_500,
      discountMinor: 425,
      promoCode: "EID10",
      totalMinor: 5_325,
    });
    // 10 % of 42.55 is 4.255: rounded down to 4.25, never up.
    expect(priceCheckout(4_255, tripoli, undefined, eid10).discountMinor).toBe(425);
    const free = { code: "FREESHIP", kind: "free_delivery", percent: null, amountMinor: null } as const;
    expect(priceCheckout(4_250, tripoli, undefined, free)).toMatchObject({ discountMinor: 1_500, totalMinor: 4_250 });
    expect(priceCheckout(4_250, undefined, undefined, free)).toMatchObject({ discountMinor: 0, totalMinor: 4_250 });
    const tenOff = { code: "TENOFF", kind: "amount", percent: null, amountMinor: 1_000 } as const;
    expect(priceCheckout(4_250, tripoli, 500, tenOff)).toMatchObject({ discountMinor: 1_000, totalMinor: 5_250 });
  });

  it("never takes the lines below zero, nor the payable total below 1.00 LYD", () => {
    const tripoli = { feeMinor: 1_500, freeAboveMinor: null };
    const fifty = { code: "FIFTY", kind: "amount", percent: null, amountMinor: 5_000 } as const;
    expect(priceCheckout(4_250, tripoli, undefined, fifty)).toMatchObject({ discountMinor: 4_250, totalMinor: 1_500 });
    const all = { code: "ALL", kind: "percent", percent: 100, amountMinor: null } as const;
    expect(priceCheckout(4_250, undefined, undefined, all)).toMatchObject({ discountMinor: 4_150, totalMinor: 100 });
    expect(priceCheckout(80, undefined, undefined, all)).toMatchObject({ discountMinor: 0, totalMinor: 80 });
  });

  it("refuses an amount that is not whole minor units", () => {
    expect(() => priceCheckout(12.5, { feeMinor: 100, freeAboveMinor: null })).toThrow(RangeError);
  });
});
