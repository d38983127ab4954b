import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { orderEvents, orders } from "@/lib/db/schema";
import { logger } from "@/lib/log";
import { setUpTestDatabase } from "@/testing/db";
import { storeOrder } from "@/testing/orders";
import { POST } from "./route";

/**
 * `POST /api/payments/webhook` as the payment service (or anyone) meets it: HTTP requests in, HTTP answers out, the
 * shop's real handler on a real database. Only where the database and the secret come from is replaced.
 */

const SECRET = "whsec-route-test-0123456789";
vi.mock("@/lib/db/client", async (original) => ({
  ...(await original<typeof import("@/lib/db/client")>()),
  getDb: vi.fn(),
}));
vi.mock("@/lib/env", async (original) => ({
  ...(await original<typeof import("@/lib/env")>()),
  getEnv: () => ({ PAYMENT_WEBHOOK_SECRET: SECRET }),
}));

const t = setUpTestDatabase();
beforeAll(() => {
  vi.mocked(getDb).mockReturnValue(t.db);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const sign = (raw: string | Uint8Array) => createHmac("sha256", SECRET).update(raw).digest("hex");
const body = (fields: Record<string, unknown>) =>
  JSON.stringify({
    event: "payment.success",
    status: "success",
    gateway: "sadad",
    amount: 18.75,
    currency: "LYD",
    transaction_id: "TXN-1",
    ...fields,
  });
async function post(raw: string | Uint8Array<ArrayBuffer>, signature: string | null = sign(raw)) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["x-mypay-signature"] = signature;
  const response = await POST(
    new Request("http://shop.test/api/payments/webhook", { method: "POST", body: raw, headers }),
  );
  return { status: response.status, json: await response.json() };
}
const webhookEvents = async (orderId?: string) =>
  (
    await t.db
      .select()
      .from(orderEvents)
      .where(orderId ? eq(orderEvents.orderId, orderId) : undefined)
  ).filter((e) => e.type === "webhook_received");

describe("NUL characters and lone surrogates (PostgreSQL stores neither)", () => {
  it("answers 401 to an unsigned delivery with a NUL in its token, escaped or raw, without touching the database", async () => {
    const { id } = await storeOrder(t.db);
    expect(await post(body({ token: "pt-a\u0000b", custom: id }), null)).toEqual({
      status: 401,
      json: { outcome: "rejected" },
    });
    expect(
      await post(new TextEncoder().encode(`{"event":"payment.success","token":"pt-a\u0000b"}`), "0".repeat(64)),
    ).toMatchObject({ status: 401 });
    expect(await webhookEvents(id)).toEqual([]);
  });

  it("records a signed delivery with a NUL in its token, and answers 2xx so the service stops retrying", async () => {
    const raw = body({ token: "pt-nul\u0000token" });
    expect(await post(raw)).toEqual({ status: 200, json: { outcome: "unknown_order" } });
    const recorded = (await webhookEvents()).find((e) => (e.data as { token?: string }).token === "pt-nul\uFFFDtoken");
    expect(recorded?.data).toMatchObject({ verified: true, outcome: "unknown_order", sanitized: true });
  });

  it("confirms a signed payment whose transaction_id holds a NUL, once, and records it on every retry", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { status: "awaiting_confirmation" });
    const raw = body({ token: paymentToken, transaction_id: "TXN-\u0000-9" });
    expect(await post(raw)).toEqual({ status: 200, json: { outcome: "confirmed" } });
    expect(await post(raw)).toEqual({ status: 200, json: { outcome: "duplicate" } });
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.status).toBe("paid");
    expect((await webhookEvents(id)).map((e) => e.data)).toEqual([
      expect.objectContaining({
        transactionId: "TXN-\uFFFD-9",
        sanitized: true,
        from: "awaiting_confirmation",
        to: "paid",
      }),
      expect.objectContaining({ transactionId: "TXN-\uFFFD-9", from: "paid", to: "paid" }),
    ]);
  });

  it("pays the order named in `custom` when the signed token holds a NUL, keeping the token as it can be stored", async () => {
    const { id } = await storeOrder(t.db, { status: "failed" });
    expect(await post(body({ token: "pt-\u0000", custom: id }))).toEqual({
      status: 200,
      json: { outcome: "confirmed" },
    });
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, id) })).toMatchObject({
      status: "paid",
      paymentToken: "pt-\uFFFD",
      flags: ["paid_after_failure"],
    });
  });

  it("records a signed delivery with a lone surrogate, and a signed body with raw NUL bytes as malformed (400)", async () => {
    const { paymentToken } = await storeOrder(t.db, { status: "awaiting_confirmation" });
    expect(await post(body({ token: paymentToken, gateway: "sadad\ud800" }))).toEqual({
      status: 200,
      json: { outcome: "confirmed" },
    });
    const raw = new TextEncoder().encode("not json \u0000 at all");
    expect(await post(raw)).toEqual({ status: 400, json: { outcome: "malformed" } });
  });
});

describe("a database failure", () => {
  it("answers 503 so the service retries, and logs the error's code and operation, never the token", async () => {
    const { Pool } = await import("pg");
    const { createDb } = await import("@/lib/db/client");
    const down = new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
    vi.mocked(getDb).mockReturnValueOnce(createDb(down));
    const error = vi.spyOn(logger, "error");
    const raw = body({ token: "pt-must-not-be-logged-42" });
    try {
      expect(await post(raw)).toMatchObject({ status: 503 });
    } finally {
      await down.end();
    }
    expect(error.mock.calls.map(([line]) => line)).toEqual([
      { event: "webhook_not_recorded", code: "ECONNREFUSED", operation: "select orders" },
    ]);
  });
});

describe("an unsigned delivery", () => {
  it("is logged with its reason, length and a running count, never its body, signature or token", async () => {
    const warn = vi.spyOn(logger, "warn");
    const { paymentToken } = await storeOrder(t.db);
    const raw = body({ token: paymentToken });
    await post(raw, "f".repeat(64));
    await post(raw, null);
    const lines = warn.mock.calls.map(([line]) => line as unknown as Record<string, unknown>);
    expect(lines).toEqual([
      {
        event: "webhook_rejected",
        reason: "wrong_signature",
        bytes: Buffer.byteLength(raw),
        rejectedSinceStart: expect.any(Number),
      },
      {
        event: "webhook_rejected",
        reason: "no_signature",
        bytes: Buffer.byteLength(raw),
        rejectedSinceStart: expect.any(Number),
      },
    ]);
    expect(lines[1]!.rejectedSinceStart).toBe((lines[0]!.rejectedSinceStart as number) + 1);
    expect(JSON.stringify(lines)).not.toContain(paymentToken);
  });
});
