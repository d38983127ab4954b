import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { receiveWebhook } from "../orders/webhook";
import { setUpTestDatabase } from "../testing/db";
import { storeOrder } from "../testing/orders";
import { findOrderForAdmin } from "./orders";

/** What the back office's order page reads (app/admin/orders/[id]/page.tsx), against a real database. */

const t = setUpTestDatabase();
const SECRET = "whsec-admin-test-0123456789";

async function deliver(fields: Record<string, unknown>) {
  const raw = JSON.stringify({ event: "payment.success", status: "success", amount: 18.75, currency: "LYD", transaction_id: "TXN-7", ...fields });
  return receiveWebhook(t.db, new TextEncoder().encode(raw), createHmac("sha256", SECRET).update(raw).digest("hex"), SECRET);
}

describe("the gateway the customer paid with", () => {
  it.each([["payment_gateway"], ["gateway"]])("is recorded from the webhook's %s when the customer picked it on the payment page", async (field) => {
    const { id, paymentToken } = await storeOrder(t.db, { paymentGateway: null });
    expect(await deliver({ token: paymentToken, [field]: "edfali" })).toEqual({ status: 200, outcome: "confirmed" });
    const order = await findOrderForAdmin(t.db, id);
    expect(order).toMatchObject({ status: "paid", paymentGateway: null, paidWith: "edfali" });
    expect(order!.events.at(-1)!.data).toMatchObject({ verified: true, gateway: "edfali", to: "paid" });
  });

  it("is unknown until a verified delivery pays the order", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { paymentGateway: "sadad" });
    expect(await deliver({ token: paymentToken, payment_gateway: "sadad", amount: 1 })).toMatchObject({ outcome: "amount_mismatch" });
    expect(await findOrderForAdmin(t.db, id)).toMatchObject({ paymentGateway: "sadad", paidWith: null });
  });
});
