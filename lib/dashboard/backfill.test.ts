import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderEvents, orders } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";

const t = setUpTestDatabase();
const orderOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;

describe("orders paid before paid_at and paid_gateway existed", () => {
  it("get the time of the move that made them paid and the gateway the service named, from their events", async () => {
    const folder = path.join(process.cwd(), "drizzle");
    // The migration's hand-written statements, after those drizzle-kit derived from the schema (the lead renumbers it).
    const file = readdirSync(folder).find((name) => name.endsWith("_dashboard.sql"))!;
    const backfill = readFileSync(path.join(folder, file), "utf8")
      .split("--> statement-breakpoint")
      .filter((statement) => statement.includes("UPDATE"));
    expect(backfill).toHaveLength(2);

    const webhook = await storeOrder(t.db, { status: "paid" });
    const marked = await storeOrder(t.db, { status: "paid" });
    const eventless = await storeOrder(t.db, { status: "paid", updatedAt: new Date("2025-01-02T03:04:05Z") });
    const unpaid = await storeOrder(t.db, { status: "cancelled" });
    const at = (iso: string) => new Date(iso);
    await t.db.insert(orderEvents).values([
      // A delivery that moved nothing (not verified) and one with another amount come first: neither made it paid.
      { orderId: webhook.id, type: "webhook_received", at: at("2026-11-24T21:00:00Z"), data: { verified: false } },
      {
        orderId: webhook.id,
        type: "webhook_received",
        at: at("2026-11-24T22:01:00Z"),
        data: { verified: true, from: "pending", to: "paid", gateway: "sadad" },
      },
      // A repeated delivery later: not the move.
      {
        orderId: webhook.id,
        type: "webhook_received",
        at: at("2026-11-25T09:00:00Z"),
        data: { verified: true, from: "paid", to: "paid", gateway: "edfali" },
      },
      {
        orderId: marked.id,
        type: "marked_paid",
        at: at("2026-11-20T10:00:00Z"),
        data: { by: "owner@medina.example", reference: "REF-1", from: "awaiting_confirmation", to: "paid" },
      },
      { orderId: unpaid.id, type: "customer_returned", at: at("2026-11-20T10:00:00Z"), data: { to: "cancelled" } },
    ]);
    for (const statement of backfill) await t.pool.query(statement);

    expect(await orderOf(webhook.id)).toMatchObject({ paidAt: at("2026-11-24T22:01:00Z"), paidGateway: "sadad" });
    expect(await orderOf(marked.id)).toMatchObject({ paidAt: at("2026-11-20T10:00:00Z"), paidGateway: null });
    expect(await orderOf(eventless.id)).toMatchObject({ paidAt: at("2025-01-02T03:04:05Z"), paidGateway: null });
    expect(await orderOf(unpaid.id)).toMatchObject({ paidAt: null, paidGateway: null });
  });
});
