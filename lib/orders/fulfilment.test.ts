import { asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it, vi } from "vitest";
import { listOrders } from "../admin/orders";
import { createDb } from "../db/client";
import { emailOutbox, orderEvents, orders, type FulfilmentStep } from "../db/schema";
import { queueOrderEmails } from "./outbox";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { nextFulfilmentStep, recordFulfilmentStep } from "./fulfilment";

/** The merchant moves a paid order along its way, one step at a time, each optionally e-mailing the customer once. */

// E-mail on, as the shop's environment turns it on (lib/env.ts, `emailSettings`).
vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
vi.stubEnv("MAIL_FROM", "Medina Market <shop@medina.example>");
vi.stubEnv("MERCHANT_EMAIL", "owner@medina.example");

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";

const deliveryColumns = async () => {
  const [zone] = await t.pool
    .query("select id, name_en, name_ar, fee_minor from delivery_zones where name_en = 'Benghazi'")
    .then((r) => r.rows);
  return {
    deliveryMethod: "delivery" as const,
    deliveryZoneId: Number(zone.id),
    deliveryCityEn: zone.name_en as string,
    deliveryCityAr: zone.name_ar as string,
    deliveryAddress: "Al-Fuwayhat, Gamal Abdel Nasser St.",
    deliveryFeeMinor: zone.fee_minor as number,
    amountMinor: 1875 + (zone.fee_minor as number),
  };
};
const paidDelivery = async () =>
  storeOrder(t.db, { status: "paid", email: "aisha@example.ly", locale: "ar", ...(await deliveryColumns()) });
const paidPickup = () =>
  storeOrder(t.db, { status: "paid", email: "aisha@example.ly", locale: "en", deliveryMethod: "pickup" });

const orderOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
const eventsOf = async (id: string) =>
  (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))).map(
    ({ type, data }) => [type, data],
  );
const outboxOf = async (id: string) =>
  (await t.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, id)).orderBy(asc(emailOutbox.id))).map(
    ({ kind, reason, recipient, locale }) => ({ kind, reason, recipient, locale }),
  );
const step = (id: string, name: FulfilmentStep, notify = true, by = ADMIN) =>
  recordFulfilmentStep(t.db, id, name, { by, notify });
/** Whether the back office's "to fulfil" filter lists the order (searched by its id). */
const toFulfil = async (id: string) => (await listOrders(t.db, { status: "to_fulfil", q: id })).count === 1;

describe("a delivery's way", () => {
  it("goes packed → out for delivery → delivered; the last sets fulfilledAt; each step has its event", async () => {
    const { id } = await paidDelivery();
    expect(nextFulfilmentStep(await orderOf(id))).toBe("packed");
    expect(await toFulfil(id)).toBe(true);

    expect(await step(id, "packed", false)).toEqual({ result: "done", emailed: false });
    expect(await orderOf(id)).toMatchObject({ fulfilment: "packed", fulfilledAt: null });
    expect(nextFulfilmentStep(await orderOf(id))).toBe("out_for_delivery");
    expect(await step(id, "out_for_delivery")).toEqual({ result: "done", emailed: true });
    expect(await toFulfil(id)).toBe(true);
    const at = new Date("2026-11-25T18:00:00Z");
    expect(await recordFulfilmentStep(t.db, id, "delivered", { by: ADMIN, notify: true, now: at })).toEqual({
      result: "done",
      emailed: true,
    });
    expect(await orderOf(id)).toMatchObject({ fulfilment: "delivered", fulfilledAt: at });
    expect(nextFulfilmentStep(await orderOf(id))).toBeNull();
    expect(await toFulfil(id)).toBe(false);

    const steps = (await eventsOf(id)).filter(([type]) => type !== "email_queued");
    expect(steps).toEqual([
      ["packed", { by: ADMIN, notify: false }],
      ["out_for_delivery", { by: ADMIN, notify: true }],
      ["delivered", { by: ADMIN, notify: true }],
    ]);
    // The steps chosen, to the customer, in the order's language; none for the step without.
    expect(await outboxOf(id)).toEqual([
      { kind: "fulfilment_update", reason: "out_for_delivery", recipient: "aisha@example.ly", locale: "ar" },
      { kind: "fulfilment_update", reason: "delivered", recipient: "aisha@example.ly", locale: "ar" },
    ]);
  });

  it("refuses a skipped step, a step again, pickup's steps and plain fulfilled, writing nothing", async () => {
    const { id } = await paidDelivery();
    expect(await step(id, "out_for_delivery")).toEqual({ result: "skipped" });
    expect(await step(id, "delivered")).toEqual({ result: "skipped" });
    expect(await step(id, "ready_for_pickup")).toEqual({ result: "wrong_way" });
    expect(await step(id, "fulfilled")).toEqual({ result: "wrong_way" });
    expect(await step(id, "packed")).toMatchObject({ result: "done" });
    expect(await step(id, "packed")).toEqual({ result: "already" });
    expect(await step(id, "picked_up")).toEqual({ result: "wrong_way" });
    expect(await step(id, "delivered")).toEqual({ result: "skipped" });
    expect((await eventsOf(id)).filter(([type]) => type !== "email_queued")).toHaveLength(1);
    expect(await outboxOf(id)).toEqual([
      { kind: "fulfilment_update", reason: "packed", recipient: "aisha@example.ly", locale: "ar" },
    ]);
  });

  it("refuses an order that is not paid, and one that does not exist", async () => {
    for (const status of ["pending", "awaiting_confirmation", "cancelled", "expired"] as const) {
      const { id } = await storeOrder(t.db, { status, email: "aisha@example.ly", ...(await deliveryColumns()) });
      expect(await step(id, "packed")).toEqual({ result: "not_paid" });
      expect(await orderOf(id)).toMatchObject({ fulfilment: null, fulfilledAt: null });
      expect(await eventsOf(id)).toEqual([]);
      expect(await outboxOf(id)).toEqual([]);
    }
    expect(await step("ord_0000000000000000", "packed")).toEqual({ result: "not_found" });
  });
});

describe("a pickup's way", () => {
  it("goes packed → ready for pickup → picked up, in the order's language, and refuses a delivery's steps", async () => {
    const { id } = await paidPickup();
    expect(await step(id, "packed")).toMatchObject({ result: "done" });
    expect(await step(id, "out_for_delivery")).toEqual({ result: "wrong_way" });
    expect(await step(id, "picked_up")).toEqual({ result: "skipped" });
    expect(await step(id, "ready_for_pickup")).toMatchObject({ result: "done" });
    expect(await step(id, "delivered")).toEqual({ result: "wrong_way" });
    expect(await step(id, "picked_up", false)).toEqual({ result: "done", emailed: false });
    expect((await orderOf(id)).fulfilledAt).toBeInstanceOf(Date);
    expect((await outboxOf(id)).map(({ reason, locale }) => [reason, locale])).toEqual([
      ["packed", "en"],
      ["ready_for_pickup", "en"],
    ]);
  });
});

describe("an order with nothing to deliver", () => {
  it("is marked fulfilled in one step (no e-mail of its own), and takes no parcel's step", async () => {
    const { id } = await storeOrder(t.db, { status: "paid", email: "aisha@example.ly" });
    expect(nextFulfilmentStep(await orderOf(id))).toBe("fulfilled");
    expect(await step(id, "packed")).toEqual({ result: "wrong_way" });
    expect(await step(id, "fulfilled")).toEqual({ result: "done", emailed: false });
    expect(await orderOf(id)).toMatchObject({ fulfilment: "fulfilled", fulfilledAt: expect.any(Date) });
    expect(await step(id, "fulfilled")).toEqual({ result: "already" });
    expect(await eventsOf(id)).toEqual([["fulfilled", { by: ADMIN }]]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it("without an e-mail address, a step is still taken, with no e-mail", async () => {
    const { id } = await storeOrder(t.db, {
      status: "paid",
      email: null,
      phone: "+218912345678",
      deliveryMethod: "pickup",
    });
    expect(await step(id, "packed")).toEqual({ result: "done", emailed: false });
    expect(await outboxOf(id)).toEqual([]);
  });
});

describe("racing", () => {
  it("the same step clicked on two server instances at once: one step, one event, one e-mail", async () => {
    const { id } = await paidDelivery();
    const second = new Pool({ connectionString: t.url, max: 2 });
    try {
      const other = createDb(second);
      for (const name of ["packed", "out_for_delivery", "delivered"] as const) {
        const results = await Promise.all([
          recordFulfilmentStep(t.db, id, name, { by: "one@medina.example", notify: true }),
          recordFulfilmentStep(other, id, name, { by: "two@medina.example", notify: true }),
        ]);
        expect(results.map(({ result }) => result).sort()).toEqual(["already", "done"]);
      }
    } finally {
      await second.end();
    }
    const events = await eventsOf(id);
    expect(events.filter(([type]) => type !== "email_queued").map(([type]) => type)).toEqual([
      "packed",
      "out_for_delivery",
      "delivered",
    ]);
    expect((await outboxOf(id)).map(({ reason }) => reason)).toEqual(["packed", "out_for_delivery", "delivered"]);
  });

  it("two steps racing (packed and out for delivery): never out of order", async () => {
    const { id } = await paidDelivery();
    const second = new Pool({ connectionString: t.url, max: 2 });
    try {
      const [out] = await Promise.all([
        recordFulfilmentStep(createDb(second), id, "out_for_delivery", { by: ADMIN, notify: false }),
        recordFulfilmentStep(t.db, id, "packed", { by: ADMIN, notify: false }),
      ]);
      const types = (await eventsOf(id)).map(([type]) => type);
      // Either out for delivery came first and was refused, or it came after packed and was taken: in order.
      expect(types).toEqual(out.result === "done" ? ["packed", "out_for_delivery"] : ["packed"]);
    } finally {
      await second.end();
    }
  });
});

describe("the customer's e-mail of a step", () => {
  it("is written once however often asked: the outbox's index keeps one per order and step", async () => {
    const { id } = await paidDelivery();
    expect(await step(id, "packed")).toEqual({ result: "done", emailed: true });
    // Asked again (a repeated click, a second tab): the step is not taken again, and no second e-mail.
    expect(await step(id, "packed")).toEqual({ result: "already" });
    expect(await queueOrderEmails(t.db, id, "packed")).toEqual([]);
    expect((await outboxOf(id)).map(({ reason }) => reason)).toEqual(["packed"]);
  });

  it("rolls back with its step: an outbox that cannot be written leaves the order where it was", async () => {
    const { id } = await paidDelivery();
    await t.pool.query(`
      create or replace function refuse_outbox() returns trigger language plpgsql as
        $$ begin raise exception 'the outbox is broken for this test'; end $$;
      create trigger refuse_outbox before insert on email_outbox for each row execute function refuse_outbox();`);
    try {
      await expect(step(id, "packed")).rejects.toThrow();
    } finally {
      await t.pool.query("drop trigger if exists refuse_outbox on email_outbox");
    }
    expect((await orderOf(id)).fulfilment).toBeNull();
    expect(await eventsOf(id)).toEqual([]);
    expect(await step(id, "packed", false)).toEqual({ result: "done", emailed: false });
  });
});
