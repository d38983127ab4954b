import { describe, expect, it } from "vitest";
import { cashOffer, type CashSettings } from "./settings";

const on: CashSettings = { enabled: true, atPickup: false, maxTotalMinor: null, feeMinor: 0, confirmWithinHours: 48 };
const tripoli = { cashOnDelivery: true };
const ghat = { cashOnDelivery: false };
const delivered = { zone: tripoli, pickup: false, physical: true, totalMinor: 7_750 };

describe("cashOffer", () => {
  it("offers cash for goods delivered to a city that takes it, with the merchant's fee", () => {
    expect(cashOffer(on, delivered)).toEqual({ offered: true, feeMinor: 0 });
    expect(cashOffer({ ...on, feeMinor: 500 }, delivered)).toEqual({ offered: true, feeMinor: 500 });
    // No city chosen yet: each city is decided once it is.
    expect(cashOffer(on, { ...delivered, zone: null })).toEqual({ offered: true, feeMinor: 0 });
  });

  it("refuses while cash is off (a new shop's default), whatever else", () => {
    expect(cashOffer({ ...on, enabled: false }, delivered)).toEqual({ offered: false, why: "off" });
  });

  it("refuses a city that does not take cash, and pickup unless it is paid at the counter", () => {
    expect(cashOffer(on, { ...delivered, zone: ghat })).toEqual({ offered: false, why: "zone" });
    const pickup = { pickup: true, physical: true, totalMinor: 7_750 };
    expect(cashOffer(on, pickup)).toEqual({ offered: false, why: "pickup" });
    expect(cashOffer({ ...on, atPickup: true }, pickup)).toEqual({ offered: true, feeMinor: 0 });
  });

  it("never offers cash for a cart of digital products only", () => {
    expect(cashOffer({ ...on, atPickup: true }, { pickup: false, physical: false, totalMinor: 1_000 })).toEqual({
      offered: false,
      why: "digital",
    });
  });

  it("refuses a total over the highest the merchant takes in cash, counting the cash fee the courier collects", () => {
    const max = { ...on, maxTotalMinor: 8_000, feeMinor: 250 };
    expect(cashOffer(max, delivered)).toEqual({ offered: true, feeMinor: 250 }); // 77.50 + 2.50 = 80.00
    expect(cashOffer(max, { ...delivered, totalMinor: 7_751 })).toEqual({ offered: false, why: "over_max" });
  });
});
