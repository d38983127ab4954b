import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { listOrders } from "../admin/orders";
import { createDb } from "../db/client";
import { orderEvents, orders } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { hasUnresolvedFlag, resolveFlag } from "./flags";
import { expireDueOrders } from "./expiry";
import { CONFIRMATION_GRACE_MS, settle } from "./settle";
import { receiveWebhook } from "./webhook";

/** Flags the merchant has dealt with: resolved by hand with a note, or by the mark as paid that answers them. */

const t = setUpTestDatabase();
const SECRET = "whsec-flags-test-0123456789";
const ADMIN = "owner@medina.example";

const orderOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
const eventsOf = (id: string) =>
  t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id));
/** Whether the back office's "flagged" filter lists the order (searched by its id). */
const listedAsFlagged = async (id: string) => (await listOrders(t.db, { status: "flagged", q: id })).count === 1;

/** A verified delivery for `token` of `amount` (a decimal), as the service sends it. */
async function deliver(token: string, amount: number, transactionId = "TXN-1") {
  const raw = JSON.stringify({
    event: "payment.success",
    status: "success",
    token,
    amount,
    currency: "LYD",
    gateway: "sadad",
    transaction_id: transactionId,
  });
  const signature = createHmac("sha256", SECRET).update(raw).digest("hex");
  return receiveWebhook(t.db, new TextEncoder().encode(raw), signature, SECRET);
}

describe("resolving a flag by hand", () => {
  it("resolves it once, with who and the note in its event; the order leaves the flagged list and keeps the flag", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { status: "awaiting_confirmation", amountMinor: 1875 });
    expect(await deliver(paymentToken, 19.75)).toMatchObject({ outcome: "amount_mismatch" });
    expect(await listedAsFlagged(id)).toBe(true);

    const note = "Customer paid 1 LYD too much; refunded it from the dashboard";
    const at = new Date("2026-11-25T19:30:00Z");
    expect(await resolveFlag(t.db, id, "amount_mismatch", { by: ADMIN, note }, at)).toBe("resolved");
    expect(await orderOf(id)).toMatchObject({ flags: ["amount_mismatch"], resolvedFlags: ["amount_mismatch"] });
    expect(await listedAsFlagged(id)).toBe(false);
    const events = await eventsOf(id);
    expect(events.at(-1)).toMatchObject({
      type: "flag_resolved",
      at,
      data: { flag: "amount_mismatch", by: ADMIN, note },
    });

    // Again, or a flag the order never had: nothing is written.
    expect(await resolveFlag(t.db, id, "amount_mismatch", { by: ADMIN, note: "again" })).toBe("already_resolved");
    expect(await resolveFlag(t.db, id, "paid_after_cancel", { by: ADMIN, note: "?" })).toBe("not_flagged");
    expect(await resolveFlag(t.db, "ord_0000000000000000", "amount_mismatch", { by: ADMIN, note: "?" })).toBe(
      "not_found",
    );
    expect(await eventsOf(id)).toHaveLength(events.length);
  });

  it("two admins resolving at once, on two server instances: one resolves it, the other is told, one event", async () => {
    const { id } = await storeOrder(t.db, { status: "paid", flags: ["paid_after_expiry"] });
    const second = new Pool({ connectionString: t.url, max: 2 });
    try {
      const results = await Promise.all([
        resolveFlag(t.db, id, "paid_after_expiry", { by: "one@medina.example", note: "shipped" }),
        resolveFlag(createDb(second), id, "paid_after_expiry", { by: "two@medina.example", note: "shipped too" }),
      ]);
      expect(results.sort()).toEqual(["already_resolved", "resolved"]);
      expect((await eventsOf(id)).filter((event) => event.type === "flag_resolved")).toHaveLength(1);
    } finally {
      await second.end();
    }
  });

  it("is news again when the flag is raised again: a second payment with another amount", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { status: "awaiting_confirmation", amountMinor: 1875 });
    await deliver(paymentToken, 19.75, "TXN-A");
    await resolveFlag(t.db, id, "amount_mismatch", { by: ADMIN, note: "refunded" });
    await deliver(paymentToken, 20.75, "TXN-B");
    expect(await orderOf(id)).toMatchObject({ flags: ["amount_mismatch"], resolvedFlags: [] });
    expect(await listedAsFlagged(id)).toBe(true);
  });

  it("can only resolve a flag the order has (the database refuses anything else)", async () => {
    const { id } = await storeOrder(t.db, { flags: ["amount_mismatch"] });
    await expect(
      t.db
        .update(orders)
        .set({ resolvedFlags: ["paid_manually"] })
        .where(eq(orders.id, id)),
    ).rejects.toThrow();
  });
});

describe("the mark as paid resolves its own flags", () => {
  it("answers the unconfirmed report and its own flag, so the order is no longer flagged; both stay on the order", async () => {
    const returned = new Date(Date.now() - CONFIRMATION_GRACE_MS - 60_000);
    const { id } = await storeOrder(t.db, {
      status: "awaiting_confirmation",
      paymentExpiresAt: returned,
      customerReturnedAt: returned,
    });
    await expireDueOrders(t.db);
    expect(await orderOf(id)).toMatchObject({ flags: ["unconfirmed_report"], resolvedFlags: [] });
    expect(await listedAsFlagged(id)).toBe(true);

    await settle(t.db, id, { kind: "marked_paid", by: ADMIN, reference: "DASH-4471", note: "seen in the dashboard" });
    expect(await orderOf(id)).toMatchObject({
      status: "paid",
      flags: ["unconfirmed_report", "paid_manually"],
      resolvedFlags: ["unconfirmed_report", "paid_manually"],
    });
    expect(await listedAsFlagged(id)).toBe(false);
    expect((await eventsOf(id)).at(-1)!.data).toMatchObject({
      by: ADMIN,
      reference: "DASH-4471",
      resolved: ["unconfirmed_report", "paid_manually"],
    });
  });

  it("leaves a payment with another amount for the merchant to resolve", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { status: "awaiting_confirmation", amountMinor: 1875 });
    await deliver(paymentToken, 19.75);
    await settle(t.db, id, { kind: "marked_paid", by: ADMIN, reference: "DASH-4472" });
    expect(await orderOf(id)).toMatchObject({
      status: "paid",
      flags: ["amount_mismatch", "paid_manually"],
      resolvedFlags: ["paid_manually"],
    });
    expect(await listedAsFlagged(id)).toBe(true);
  });
});

describe("the flagged filter at scale", () => {
  it("is answered from the partial index of orders needing attention, the list and its count alike", async () => {
    // The planner picks the partial index only when the filter's condition implies the index's: the two must agree.
    const plans = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explain = async (query: { sql: string; params: unknown[] }) => {
        const { rows } = await tx.execute(sql.raw(`explain ${inline(query.sql, query.params)}`));
        return rows.map((row) => Object.values(row).join("")).join("\n");
      };
      return [
        await explain(
          tx
            .select({ id: orders.id })
            .from(orders)
            .where(hasUnresolvedFlag())
            .orderBy(sql`${orders.createdAt} desc, ${orders.id} desc`)
            .limit(51)
            .toSQL(),
        ),
        await explain(
          tx
            .select({ n: sql`count(*)` })
            .from(orders)
            .where(hasUnresolvedFlag())
            .toSQL(),
        ),
      ];
    });
    for (const plan of plans) expect(plan).toContain("orders_needing_attention_created");
  });
});

describe("orders marked paid before flags could be resolved", () => {
  it("have the flags their mark answered resolved by the migration's backfill, and nothing else", async () => {
    const folder = path.join(process.cwd(), "drizzle");
    // The migration's hand-written statement, after those drizzle-kit derived from the schema (the lead renumbers it).
    const file = readdirSync(folder).find((name) => name.endsWith("_resolved_flags.sql"))!;
    const backfill = readFileSync(path.join(folder, file), "utf8")
      .split("--> statement-breakpoint")
      .find((statement) => statement.includes("UPDATE"))!;
    const marked = await storeOrder(t.db, { status: "paid", flags: ["unconfirmed_report", "paid_manually"] });
    const mismatched = await storeOrder(t.db, { status: "paid", flags: ["amount_mismatch", "paid_manually"] });
    const untouched = await storeOrder(t.db, { status: "awaiting_confirmation", flags: ["amount_mismatch"] });
    await t.pool.query(backfill);
    expect((await orderOf(marked.id)).resolvedFlags.sort()).toEqual(["paid_manually", "unconfirmed_report"]);
    expect(await orderOf(mismatched.id)).toMatchObject({ resolvedFlags: ["paid_manually"], needsAttention: true });
    expect(await orderOf(untouched.id)).toMatchObject({ resolvedFlags: [], needsAttention: true });
  });
});

/** A query's text with its `$n` parameters written in, for EXPLAIN (which takes no parameters). */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => `'${String(params[Number(n) - 1]).replaceAll("'", "''")}'`);
}
