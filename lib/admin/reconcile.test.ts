import { asc, eq, inArray } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../db/client";
import { emailOutbox, orderEvents, orders, paymentLists, type OrderStatus } from "../db/schema";
import { settle } from "../orders/settle";
import { cancelOrder } from "../refunds/cancel";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { MAX_LIST_BYTES } from "./payment-list";
import { applyPaymentList, lastReconciledAt, planReconciliation, storePaymentList, type RowOutcome } from "./reconcile";

// E-mail on, as the shop's environment turns it on: settle() reads these through lib/env.ts.
vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
vi.stubEnv("MAIL_FROM", "Medina Market <shop@medina.example>");
vi.stubEnv("MERCHANT_EMAIL", "owner@medina.example");

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";

/** An order in `status` with a payment (unless started or failed) of 18.75 LYD. */
const storedOrder = (status: OrderStatus, overrides: Partial<typeof orders.$inferInsert> = {}) =>
  storeOrder(t.db, {
    status,
    email: "aisha@example.ly",
    paymentToken: status === "started" || status === "failed" ? undefined : `pt-${crypto.randomUUID()}`,
    ...overrides,
  });
const listOf = async (content: string) => {
  const stored = await storePaymentList(t.db, { pasted: content, by: ADMIN });
  if (!("id" in stored)) throw new Error(`not stored: ${stored.error}`);
  return stored.id;
};
const csv = (...rows: string[]) => ["token;order;amount;reference;status", ...rows].join("\n");
const orderRow = (id: string) => t.db.query.orders.findFirst({ where: eq(orders.id, id) });

/** Everything a reconciliation can write, for the orders given: to prove that something wrote nothing. */
async function snapshot(ids: string[]) {
  const [rows, events, emails] = await Promise.all([
    t.db.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id)),
    t.db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(asc(orderEvents.id)),
    t.db.select().from(emailOutbox).where(inArray(emailOutbox.orderId, ids)).orderBy(asc(emailOutbox.id)),
  ]);
  return { rows, events, emails };
}

describe("matching a list against the orders", () => {
  it("gives every payment its outcome, and applying it marks paid exactly the matching unpaid orders", async () => {
    const pending = await storedOrder("pending");
    const dead = await storedOrder("pending", {
      paymentExpiresAt: new Date(Date.now() - 60_000),
    });
    const expired = await storedOrder("expired");
    const cancelled = await storedOrder("cancelled");
    const reported = await storedOrder("awaiting_confirmation");
    const paid = await storedOrder("paid");
    const otherAmount = await storedOrder("pending");
    const failed = await storedOrder("failed");
    const declined = await storedOrder("pending");
    const conflicting = await storedOrder("pending");
    const list = await listOf(
      csv(
        `${pending.paymentToken};;18.75;TXN-PENDING;Success`,
        `${dead.paymentToken};;18,75;TXN-DEAD;Success`,
        `;${expired.id};18.75;TXN-EXPIRED;Success`, // by order number
        `${cancelled.paymentToken};;18.75;TXN-CANCELLED;Success`,
        `${reported.paymentToken};;18.75;TXN-REPORTED;Success`,
        `${paid.paymentToken};;18.75;TXN-PAID;Success`,
        `${otherAmount.paymentToken};;20.00;TXN-OTHER;Success`,
        `;${failed.id};18.75;TXN-FAILED;Success`,
        `pt-nobody-knows;;5.00;TXN-UNKNOWN;Success`,
        `${pending.paymentToken};;18.75;TXN-AGAIN;Success`,
        `${declined.paymentToken};;18.75;TXN-DECLINED;Declined`,
        `${conflicting.paymentToken};${pending.id};18.75;TXN-CONFLICT;Success`,
      ),
    );
    const plan = await planReconciliation(t.db, list);
    expect(plan?.problems).toEqual([]);
    const outcomes = plan!.rows.map((row) => [row.payment.reference, row.outcome, row.order?.status ?? null]);
    expect(outcomes).toEqual([
      ["TXN-PENDING", "mark_paid", "pending"],
      ["TXN-DEAD", "mark_paid", "expired"], // a dead page reads as expired before the job has written it
      ["TXN-EXPIRED", "mark_paid", "expired"],
      ["TXN-CANCELLED", "mark_paid", "cancelled"],
      ["TXN-REPORTED", "mark_paid", "awaiting_confirmation"],
      ["TXN-PAID", "already_paid", "paid"],
      ["TXN-OTHER", "amount_differs", "pending"],
      ["TXN-FAILED", "cannot_mark", "failed"],
      ["TXN-UNKNOWN", "no_order", null],
      ["TXN-AGAIN", "listed_twice", "pending"],
      ["TXN-DECLINED", "not_completed", null],
      ["TXN-CONFLICT", "conflict", "pending"],
    ]);
    expect(plan!.rows.find((row) => row.outcome === "listed_twice")?.firstRow).toBe(2);
    expect(plan!.toApply).toBe(5);

    // The check wrote nothing.
    const untouched = [pending, dead, expired, cancelled, reported, paid, otherAmount, failed, declined, conflicting];
    const ids = untouched.map((order) => order.id);
    const before = await snapshot(ids);
    expect(before.events).toEqual([]);

    expect(await applyPaymentList(t.db, list, ADMIN)).toEqual({ outcome: "applied", marked: 5 });
    for (const [order, reference, from] of [
      [pending, "TXN-PENDING", "pending"],
      [dead, "TXN-DEAD", "pending"],
      [expired, "TXN-EXPIRED", "expired"],
      [cancelled, "TXN-CANCELLED", "cancelled"],
      [reported, "TXN-REPORTED", "awaiting_confirmation"],
    ] as const) {
      // The list's mark resolves its own flag, as the order page's does: nothing is left "flagged".
      expect(await orderRow(order.id)).toMatchObject({
        status: "paid",
        flags: ["paid_manually"],
        resolvedFlags: ["paid_manually"],
      });
      const events = await t.db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, order.id))
        .orderBy(asc(orderEvents.id));
      expect(events.map((event) => [event.type, event.data])).toEqual([
        [
          "marked_paid",
          { by: ADMIN, reference, list, from, to: "paid", flag: "paid_manually", resolved: ["paid_manually"] },
        ],
        ["email_queued", expect.objectContaining({ kind: "receipt", reason: "paid" })],
        ["email_queued", expect.objectContaining({ kind: "merchant_notice", reason: "paid" })],
      ]);
    }
    // Refused, unknown, skipped and conflicting payments changed nothing.
    const rest = [paid, otherAmount, failed, declined, conflicting].map((order) => order.id);
    const after = await snapshot(rest);
    expect(after).toEqual({
      rows: before.rows.filter((row) => rest.includes(row.id)),
      events: [],
      emails: [],
    });

    const done = await planReconciliation(t.db, list);
    const count = (outcome: RowOutcome) => done!.rows.filter((row) => row.outcome === outcome).length;
    expect([count("marked_paid"), count("mark_paid"), count("already_paid"), done!.toApply]).toEqual([5, 0, 1, 0]);
    expect(done!.list).toMatchObject({ appliedBy: ADMIN, appliedAt: expect.any(Date) });
  });

  it("is idempotent: the same list applied again, or given again, changes nothing", async () => {
    const orders = await Promise.all([storedOrder("expired"), storedOrder("pending"), storedOrder("cancelled")]);
    const content = csv(...orders.map((order, i) => `${order.paymentToken};;18.75;TXN-${i};paid`));
    const list = await listOf(content);
    const before = new Date();
    expect(await applyPaymentList(t.db, list, ADMIN)).toEqual({ outcome: "applied", marked: 3 });
    // The merchant's home says when a list was last reconciled: this one, now.
    expect((await lastReconciledAt(t.db))!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    const ids = orders.map((order) => order.id);
    const once = await snapshot(ids);
    expect(once.events.filter((event) => event.type === "marked_paid")).toHaveLength(3);
    expect(once.emails).toHaveLength(6);

    expect(await applyPaymentList(t.db, list, ADMIN)).toEqual({ outcome: "nothing_to_apply", marked: 0 });
    const again = await listOf(content);
    expect((await planReconciliation(t.db, again))!.rows.map((row) => row.outcome)).toEqual([
      "already_paid",
      "already_paid",
      "already_paid",
    ]);
    expect(await applyPaymentList(t.db, again, "someone-else@medina.example")).toEqual({
      outcome: "nothing_to_apply",
      marked: 0,
    });
    expect(await snapshot(ids)).toEqual(once);
  });

  it("two admins applying at once, on two server instances (pools): each order is marked paid once, with its e-mails once", async () => {
    const second = new Pool({ connectionString: t.url, max: 5 });
    const otherInstance = createDb(second);
    try {
      const many = await Promise.all(Array.from({ length: 12 }, () => storedOrder("expired")));
      const content = csv(...many.map((order, i) => `${order.paymentToken};;18.75;TXN-RACE-${i};Success`));
      const [list, sameContent] = [await listOf(content), await listOf(content)];
      const results = await Promise.all([
        applyPaymentList(t.db, list, "one@medina.example"),
        applyPaymentList(otherInstance, list, "two@medina.example"),
        applyPaymentList(otherInstance, sameContent, "three@medina.example"),
      ]);
      expect(results.reduce((sum, result) => sum + result.marked, 0)).toBe(12);
      const { rows, events, emails } = await snapshot(many.map((order) => order.id));
      expect(rows.every((row) => row.status === "paid" && row.flags.join() === "paid_manually")).toBe(true);
      const marks = events.filter((event) => event.type === "marked_paid");
      expect(marks).toHaveLength(12);
      expect(new Set(marks.map((event) => event.orderId)).size).toBe(12);
      expect(emails).toHaveLength(24);
    } finally {
      await second.end();
    }
  });

  it("never applies a list with problems, and says so", async () => {
    const order = await storedOrder("expired");
    const list = await listOf(csv(`${order.paymentToken};;18.75;TXN-1;Success`, `pt-2;;12.5.0;TXN-2;Success`));
    const plan = await planReconciliation(t.db, list);
    expect(plan!.problems).toEqual([
      { code: "cell", row: 3, letter: "C", column: "amount", value: "12.5.0", problem: "amount" },
    ]);
    expect(plan!.toApply).toBe(0);
    expect(await applyPaymentList(t.db, list, ADMIN)).toEqual({ outcome: "has_problems", marked: 0 });
    expect(await orderRow(order.id)).toMatchObject({ status: "expired", flags: [] });
  });

  it("answers not_found for a list that does not exist, or an id that is not a list's", async () => {
    expect(await planReconciliation(t.db, "lst_0000000000000000")).toBeUndefined();
    expect(await planReconciliation(t.db, "'; drop table orders; --")).toBeUndefined();
    expect(await applyPaymentList(t.db, "lst_0000000000000000", ADMIN)).toEqual({ outcome: "not_found", marked: 0 });
  });
});

describe("paid orders the list lacks", () => {
  /** An order placed at `placed` and confirmed by the service's webhook at `paidAt`. */
  async function paidAt(placed: string, paidAt: string) {
    const order = await storedOrder("pending", { createdAt: new Date(placed) });
    await settle(
      t.db,
      order.id,
      { kind: "payment_confirmed", paymentToken: order.paymentToken, delivery: {} },
      new Date(paidAt),
    );
    return order;
  }

  it("are those paid on the list's days (Africa/Tripoli) that it does not name", async () => {
    // Tripoli is UTC+2: 22:30 UTC on the 3rd is the 4th there, 22:30 UTC on the 5th is the 6th.
    const early = await paidAt("2025-03-03T22:20:00Z", "2025-03-03T22:30:00Z");
    const listed = await paidAt("2025-03-04T09:00:00Z", "2025-03-04T09:05:00Z");
    const late = await paidAt("2025-03-02T09:00:00Z", "2025-03-05T12:00:00Z"); // confirmed days after it was placed
    const after = await paidAt("2025-03-05T22:20:00Z", "2025-03-05T22:30:00Z");
    const before = await paidAt("2025-03-03T21:00:00Z", "2025-03-03T21:30:00Z");
    const list = await listOf(
      [
        "Payment token,Amount,Reference,Date",
        `${listed.paymentToken},18.75,TXN-1,04/03/2025 11:05`,
        `pt-unknown,5.00,TXN-2,05/03/2025`,
      ].join("\n"),
    );
    const plan = await planReconciliation(t.db, list);
    expect(plan!.days).toEqual({ from: "2025-03-04", to: "2025-03-05" });
    expect(plan!.missing.map((order) => order.id)).toEqual([early.id, late.id]);
    expect(plan!.missing[0]).toMatchObject({
      paymentToken: early.paymentToken,
      amountMinor: 1875,
      paidAt: new Date("2025-03-03T22:30:00Z"),
    });
    expect([after.id, before.id].some((id) => plan!.missing.some((order) => order.id === id))).toBe(false);
  });

  it("never holds a cash order: a payment naming one matches nothing, and its collection is never missing", async () => {
    // Collected at 10:00 on 4 March 2025 (Tripoli), its move to paid an event as the online ones have.
    const cash = await storeOrder(t.db, {
      paymentMethod: "cash",
      status: "paid",
      amountMinor: 1875,
      confirmBy: null,
      createdAt: new Date("2025-03-03T09:00:00Z"),
      collectedMinor: 1875,
      collectedBy: ADMIN,
      paidAt: new Date("2025-03-04T08:00:00Z"),
    });
    await t.db.insert(orderEvents).values({
      orderId: cash.id,
      type: "cash_collected",
      data: { from: "confirmed", to: "paid", by: ADMIN, amountMinor: 1875 },
      at: new Date("2025-03-04T08:00:00Z"),
    });
    // An expired cash order named by its number: marking it paid would call cash paid that no courier brought.
    const expired = await storeOrder(t.db, { paymentMethod: "cash", status: "expired", amountMinor: 1875 });
    const before = await snapshot([cash.id, expired.id]);
    const list = await listOf(
      [
        "Order,Amount,Reference,Date",
        `${expired.id},18.75,TXN-C1,04/03/2025`,
        `${cash.id},18.75,TXN-C2,04/03/2025`,
      ].join("\n"),
    );
    const plan = await planReconciliation(t.db, list);
    expect(plan!.rows.map((row) => row.outcome)).toEqual(["no_order", "no_order"]);
    expect(plan!.missing.map((order) => order.id)).not.toContain(cash.id);
    expect(await applyPaymentList(t.db, list, ADMIN)).toEqual({ outcome: "nothing_to_apply", marked: 0 });
    expect(await snapshot([cash.id, expired.id])).toEqual(before);
  });

  it("expects the payment of an order cancelled after it was paid: its money goes back as a refund, never a mark", async () => {
    // Paid by the webhook at 10:00 on 4 March 2025 (Tripoli), then cancelled by the merchant: a refund to make.
    const order = await storedOrder("pending", { createdAt: new Date("2025-03-04T07:55:00Z") });
    await settle(
      t.db,
      order.id,
      { kind: "payment_confirmed", paymentToken: order.paymentToken, delivery: {} },
      new Date("2025-03-04T08:00:00Z"),
    );
    expect(await cancelOrder(t.db, order.id, { by: ADMIN, reason: "out_of_stock", notify: false })).toMatchObject({
      result: "done",
    });
    const before = await snapshot([order.id]);
    const dated = (...rows: string[]) => ["Token,Amount,Reference,Date", ...rows].join("\n");
    const list = await listOf(dated(`${order.paymentToken},18.75,TXN-R1,04/03/2025`));
    const plan = await planReconciliation(t.db, list);
    expect(plan!.rows.map((row) => row.outcome)).toEqual(["already_paid"]);
    expect(await applyPaymentList(t.db, list, ADMIN)).toEqual({ outcome: "nothing_to_apply", marked: 0 });
    expect(await snapshot([order.id])).toEqual(before);
    // A list of that day without it: its payment is missing, as any paid order's would be.
    const other = await listOf(dated(`pt-someone-else,5.00,TXN-R2,04/03/2025`));
    expect((await planReconciliation(t.db, other))!.missing.map((missing) => missing.id)).toContain(order.id);
  });

  it("cannot be told without dates", async () => {
    const plan = await planReconciliation(t.db, await listOf("token,amount,reference\npt-x,1,A"));
    expect(plan).toMatchObject({ days: null, missing: [], moreMissing: false });
  });
});

describe("storing a list", () => {
  it("takes the file over the pasted text, decoded, with its name made printable", async () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("رمز الدفع,المبلغ,المرجع\n")]);
    const stored = await storePaymentList(t.db, {
      pasted: "ignored",
      file: { name: "payments\u0007-march.csv", bytes },
      by: ADMIN,
    });
    const [row] = await t.db
      .select()
      .from(paymentLists)
      .where(eq(paymentLists.id, (stored as { id: string }).id));
    expect(row).toMatchObject({
      fileName: "payments-march.csv",
      content: "رمز الدفع,المبلغ,المرجع\n",
      createdBy: ADMIN,
    });
  });

  it.each([
    ["nothing", { pasted: "  \n" }, "empty"],
    ["an empty file and nothing pasted", { file: { name: "a.csv", bytes: new Uint8Array() } }, "empty"],
    ["a list over the limit", { pasted: "a".repeat(MAX_LIST_BYTES + 1) }, "too_large"],
    [
      "a spreadsheet's own format",
      { file: { name: "a.xlsx", bytes: Uint8Array.from([0x50, 0x4b, 3, 4, 0]) } },
      "not_text",
    ],
    ["pasted text with a NUL", { pasted: "a\u0000b" }, "not_text"],
  ])("refuses %s", async (_name, input, error) => {
    expect(await storePaymentList(t.db, { ...input, by: ADMIN })).toEqual({ error });
  });
});
