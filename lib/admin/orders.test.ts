import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { receiveWebhook } from "../orders/webhook";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { findOrderForAdmin, listOrders, parseOrderListQuery } from "./orders";

/** What the back office's order page reads (app/admin/orders/[id]/page.tsx), against a real database. */

const t = setUpTestDatabase();
const SECRET = "whsec-admin-test-0123456789";

async function deliver(fields: Record<string, unknown>) {
  const raw = JSON.stringify({
    event: "payment.success",
    status: "success",
    amount: 18.75,
    currency: "LYD",
    transaction_id: "TXN-7",
    ...fields,
  });
  return receiveWebhook(
    t.db,
    new TextEncoder().encode(raw),
    createHmac("sha256", SECRET).update(raw).digest("hex"),
    SECRET,
  );
}

describe("the gateway the customer paid with", () => {
  it.each([["payment_gateway"], ["gateway"]])(
    "is recorded from the webhook's %s when the customer picked it on the payment page",
    async (field) => {
      const { id, paymentToken } = await storeOrder(t.db, { paymentGateway: null });
      expect(await deliver({ token: paymentToken, [field]: "edfali" })).toEqual({
        httpStatus: 200,
        outcome: "confirmed",
      });
      const order = await findOrderForAdmin(t.db, id);
      expect(order).toMatchObject({ status: "paid", paymentGateway: null, paidWith: "edfali" });
      expect(order!.events.at(-1)!.data).toMatchObject({ verified: true, gateway: "edfali", to: "paid" });
    },
  );

  it("is unknown until a verified delivery pays the order", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { paymentGateway: "sadad" });
    expect(await deliver({ token: paymentToken, payment_gateway: "sadad", amount: 1 })).toMatchObject({
      outcome: "amount_mismatch",
    });
    expect(await findOrderForAdmin(t.db, id)).toMatchObject({ paymentGateway: "sadad", paidWith: null });
  });
});

describe("the orders list", () => {
  const cursor = (at: string, id: string) => Buffer.from(`${at}|${id}`).toString("base64url");
  const list = (params: Record<string, string>) => {
    // As the page does: read the address, then list what could be read.
    const { query, ignored } = parseOrderListQuery(params);
    return listOrders(t.db, query).then((page) => ({ ...page, ignored }));
  };

  it.each([
    ["a NUL", "a\u0000b"],
    ["another control character", "pt-\u0007"],
    ["a lone surrogate", "pt-\ud800"],
  ])("answers a search with %s with the list and names the search it could not read", async (_name, q) => {
    const page = await list({ q });
    expect(page.ignored).toEqual(["q"]);
    expect(page.count).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["year −271821", "-271821-04-20T00:00:00.000Z"],
    ["year +275760", "+275760-09-13T00:00:00.000Z"],
    ["before 1970", "1969-12-31T23:59:59.999Z"],
  ])("treats a cursor dated %s as unreadable, never as a query the database refuses", async (_name, at) => {
    const { id } = await storeOrder(t.db);
    for (const edge of ["before", "after"]) expect((await list({ [edge]: cursor(at, id) })).ignored).toEqual([edge]);
  });

  it("adds up only paid orders in the total: cancelled, expired and unconfirmed ones are not money", async () => {
    const email = "totals@shop.ly";
    const amounts = {
      paid: 1_000,
      cancelled: 2_000,
      expired: 4_000,
      pending: 8_000,
      awaiting_confirmation: 16_000,
    } as const;
    for (const [status, amountMinor] of Object.entries(amounts))
      await storeOrder(t.db, { status: status as keyof typeof amounts, amountMinor, email });
    await storeOrder(t.db, { status: "paid", amountMinor: 32_000, email });
    expect(await list({ q: email })).toMatchObject({ count: 6, totalMinor: 33_000 });
    expect(await list({ q: email, status: "cancelled" })).toMatchObject({ count: 1, totalMinor: 0 });
  });
});
