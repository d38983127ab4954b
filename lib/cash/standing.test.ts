import { describe, expect, it } from "vitest";
import { cashStanding, cashStillToPay, courierCash } from "./standing";

describe("where a cash order stands, as its customer reads it", () => {
  it("reads the status and the parcel's step together, and asks for the cash until the goods are handed over", () => {
    const cases = [
      [{ status: "placed", fulfilment: null }, "waiting_call", true],
      [{ status: "confirmed", fulfilment: null }, "confirmed", true],
      [{ status: "confirmed", fulfilment: "packed" }, "confirmed", true],
      [{ status: "confirmed", fulfilment: "out_for_delivery" }, "on_its_way", true],
      [{ status: "confirmed", fulfilment: "ready_for_pickup" }, "ready_for_pickup", true],
      [{ status: "confirmed", fulfilment: "delivery_failed" }, "delivery_failed", true],
      // Delivered never means paid: the cash is not recorded yet, but the customer has nothing more to hand over.
      [{ status: "confirmed", fulfilment: "delivered" }, "handed_over", false],
      [{ status: "confirmed", fulfilment: "picked_up" }, "handed_over", false],
      [{ status: "paid", fulfilment: "delivered" }, "paid", false],
      [{ status: "cancelled", fulfilment: null }, "cancelled", false],
      [{ status: "cancelled", fulfilment: "returned" }, "returned", false],
      [{ status: "expired", fulfilment: null }, "expired", false],
    ] as const;
    for (const [order, standing, toPay] of cases) {
      expect(cashStanding(order)).toBe(standing);
      expect(cashStillToPay(standing)).toBe(toPay);
    }
  });

  it("tells the courier to collect the total only once the order is confirmed, and never to hand over a cancelled one", () => {
    expect(courierCash("placed")).toBe("not_confirmed");
    expect(courierCash("confirmed")).toBe("collect");
    expect(courierCash("paid")).toBe("collected");
    expect(courierCash("cancelled")).toBe("cancelled");
    expect(courierCash("expired")).toBe("cancelled");
  });
});
