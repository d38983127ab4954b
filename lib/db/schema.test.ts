import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setUpTestDatabase } from "../../testing/db";
import { applyMigrations, pendingMigrations } from "./migrate";
import { orderEvents, orders } from "./schema";

const t = setUpTestDatabase();

const order = (id: string, extra: Partial<typeof orders.$inferInsert> = {}) => ({
  id,
  sessionId: "session-1",
  fingerprint: "fp-1",
  status: "started" as const,
  amountMinor: 1250,
  currency: "LYD",
  locale: "en",
  claimExpiresAt: new Date(Date.now() + 20_000),
  ...extra,
});

describe("migrations", () => {
  it("leave nothing pending, and applying them again is a no-op", async () => {
    expect(await pendingMigrations(t.pool)).toEqual([]);
    expect(await applyMigrations(t.pool)).toEqual([]);
  });

  it("two deploys migrating at once take turns (advisory lock)", async () => {
    const results = await Promise.all([applyMigrations(t.pool), applyMigrations(t.pool)]);
    expect(results).toEqual([[], []]);
  });
});

describe("the orders schema", () => {
  it("allows one started checkout per session and fingerprint", async () => {
    await t.db.insert(orders).values(order("ord_a"));
    await expect(t.db.insert(orders).values(order("ord_b"))).rejects.toThrow();
    // Another session, or the same one with another fingerprint, is another checkout.
    await t.db.insert(orders).values(order("ord_c", { sessionId: "session-2" }));
    await t.db.insert(orders).values(order("ord_d", { fingerprint: "fp-2" }));
  });

  it("refuses a negative amount, an unknown status and an open order without a payment token", async () => {
    await expect(t.db.insert(orders).values(order("ord_e", { amountMinor: -1, fingerprint: "e" }))).rejects.toThrow();
    await expect(
      t.db.insert(orders).values(order("ord_f", { status: "shipped" as never, fingerprint: "f" })),
    ).rejects.toThrow();
    await expect(t.db.insert(orders).values(order("ord_g", { status: "pending", fingerprint: "g" }))).rejects.toThrow();
  });

  it("keeps payment tokens unique", async () => {
    await t.db.insert(orders).values(order("ord_h", { status: "pending", fingerprint: "h", paymentToken: "tok" }));
    await expect(
      t.db.insert(orders).values(order("ord_i", { status: "pending", fingerprint: "i", paymentToken: "tok" })),
    ).rejects.toThrow();
  });

  it("keeps the event history append-only", async () => {
    const [event] = await t.db.insert(orderEvents).values({ orderId: "ord_a", type: "created" }).returning();
    // The trigger's RAISE (SQLSTATE P0001). The shop's errors keep the code, not PostgreSQL's message
    // (lib/db/client.ts); the driver's own error says which trigger it was.
    await expect(
      t.db
        .update(orderEvents)
        .set({ type: "fulfilled" })
        .where(sql`id = ${event!.id}`),
    ).rejects.toMatchObject({ code: "P0001", operation: "update order_events" });
    await expect(t.db.delete(orderEvents).where(sql`id = ${event!.id}`)).rejects.toMatchObject({
      code: "P0001",
      operation: "delete order_events",
    });
    await expect(t.pool.query("delete from order_events where id = $1", [event!.id])).rejects.toThrow(
      /order_events is append-only/,
    );
    const [kept] = await t.db
      .select()
      .from(orderEvents)
      .where(sql`id = ${event!.id}`);
    expect(kept?.type).toBe("created");
  });
});
