import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { orderEvents, orderLines, orders, type OrderStatus } from "../db/schema";
import { newOrderId } from "../orders/store";
import { setUpTestDatabase } from "../testing/db";
import { ensureDevelopmentAdmin, saveAdmin } from "./accounts";
import { Gate, MAX_FAILED_SIGN_INS, signIn } from "./auth";
import { exportOrdersCsv, fulfilOrder, listOrders, neutraliseFormula, parseOrderListQuery, PAGE_SIZE } from "./orders";
import { hashPassword, verifyPassword } from "./passwords";

/** The back office's rules against a real database (the run's embedded PostgreSQL, or the one of TEST_DATABASE_URL). */

const t = setUpTestDatabase();

describe("passwords", () => {
  it("hashes with scrypt and a random salt, and verifies only the same password", async () => {
    const [a, b] = await Promise.all([hashPassword("correct horse battery"), hashPassword("correct horse battery")]);
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("", a)).toBe(false);
  });
  it("says no to a stored value that is not a hash of ours, without throwing", async () => {
    for (const stored of ["", "plain-text", "scrypt$x$8$1$abc$def", "bcrypt$2b$10$abc", "scrypt$99999999$8$1$abc$def"]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
    }
  });
});

describe("accounts and sign-in", () => {
  it("creates an admin, resets the password, and refuses a short one", async () => {
    expect(await saveAdmin(t.db, "Owner@Shop.LY", "a-long-enough-password")).toEqual({ created: true });
    expect(await saveAdmin(t.db, "owner@shop.ly", "another-long-password")).toEqual({ created: false });
    await expect(saveAdmin(t.db, "owner@shop.ly", "short")).rejects.toThrow(RangeError);
    expect((await signIn(t.db, { email: "OWNER@shop.ly", password: "another-long-password", ip: "10.0.0.1" })).ok).toBe(true);
    expect(await signIn(t.db, { email: "owner@shop.ly", password: "a-long-enough-password", ip: "10.0.0.1" })).toEqual({ ok: false, reason: "invalid" });
  });

  it("answers an unknown e-mail exactly as a wrong password", async () => {
    expect(await signIn(t.db, { email: "nobody@shop.ly", password: "whatever-it-is", ip: "10.0.0.2" })).toEqual({ ok: false, reason: "invalid" });
  });

  it(`locks an e-mail after ${MAX_FAILED_SIGN_INS} failures in 15 minutes, even with the right password, on any connection`, async () => {
    await saveAdmin(t.db, "locked@shop.ly", "the-right-password");
    // Two pools: two server instances racing.
    const second = new Pool({ connectionString: t.url, max: 5 });
    try {
      const other = createDb(second);
      // Each instance its own gate, wide enough that all eight reach the database at once.
      const gates = [new Gate(8, 0), new Gate(8, 0)];
      const attempts = await Promise.all(
        Array.from({ length: 8 }, (_, i) => signIn(i % 2 ? other : t.db, { email: "locked@shop.ly", password: "wrong-password", ip: `10.1.0.${i}` }, { gate: gates[i % 2] })),
      );
      expect(attempts.filter((a) => !a.ok && a.reason === "invalid")).toHaveLength(MAX_FAILED_SIGN_INS);
      expect(attempts.filter((a) => !a.ok && a.reason === "locked")).toHaveLength(8 - MAX_FAILED_SIGN_INS);
    } finally {
      await second.end();
    }
    expect(await signIn(t.db, { email: "locked@shop.ly", password: "the-right-password", ip: "10.1.0.99" })).toEqual({ ok: false, reason: "locked", retryAfterMinutes: 15 });
    // Fifteen minutes later the window has passed.
    const later = new Date(Date.now() + 15 * 60_000 + 1_000);
    expect((await signIn(t.db, { email: "locked@shop.ly", password: "the-right-password", ip: "10.1.0.99" }, { now: later })).ok).toBe(true);
  });

  it(`locks an IP address after ${MAX_FAILED_SIGN_INS} failures, whichever e-mails it tries`, async () => {
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) await signIn(t.db, { email: `guess${i}@shop.ly`, password: "nope-nope-nope", ip: "10.2.0.1" });
    expect(await signIn(t.db, { email: "owner@shop.ly", password: "another-long-password", ip: "10.2.0.1" })).toMatchObject({ ok: false, reason: "locked" });
    expect((await signIn(t.db, { email: "owner@shop.ly", password: "another-long-password", ip: "10.2.0.2" })).ok).toBe(true);
  });

  it("creates the development admin only when there is no admin", async () => {
    expect(await ensureDevelopmentAdmin(t.db)).toBe(false);
  });
});

describe("orders in the back office", () => {
  let sequence = 0;
  async function seed(count: number, extra: Partial<typeof orders.$inferInsert> = {}) {
    const rows = Array.from({ length: count }, () => {
      const id = newOrderId();
      sequence++;
      return {
        id,
        sessionId: "s",
        fingerprint: id,
        status: "paid" as OrderStatus,
        amountMinor: 1000,
        currency: "LYD",
        locale: "en",
        paymentToken: `pt-${id}`,
        paymentUrl: "https://pay.example.ly/x",
        accessTokenIssuedAt: new Date(),
        claimExpiresAt: new Date(),
        createdAt: new Date(Date.UTC(2026, 0, 1) + sequence * 1_000),
        ...extra,
      };
    });
    await t.db.insert(orders).values(rows);
    return rows;
  }

  it("pages newest first without gaps or repeats, both ways", async () => {
    const seeded = await seed(PAGE_SIZE * 2 + 7, { email: "pager@shop.ly" });
    const query = parseOrderListQuery({ q: "PAGER@shop.ly" }).query;
    const first = await listOrders(t.db, query);
    expect(first.count).toBe(seeded.length);
    expect(first.totalMinor).toBe(seeded.length * 1000);
    expect(first.newer).toBeUndefined();
    const second = await listOrders(t.db, { ...query, ...parseOrderListQuery({ before: first.older }).query });
    const third = await listOrders(t.db, { ...query, ...parseOrderListQuery({ before: second.older }).query });
    expect(third.older).toBeUndefined();
    const ids = [...first.orders, ...second.orders, ...third.orders].map((o) => o.id);
    expect(ids).toEqual(seeded.map((o) => o.id).reverse());
    const back = await listOrders(t.db, { ...query, ...parseOrderListQuery({ after: third.newer }).query });
    expect(back.orders.map((o) => o.id)).toEqual(second.orders.map((o) => o.id));
  });

  it("filters by status, flagged and to fulfil, and finds by id, token, e-mail in any case, or phone in any form", async () => {
    const [flagged] = await seed(1, { status: "paid", flags: ["paid_after_cancel"], email: "Flag@Shop.ly", phone: "0912345678" });
    const [awaiting] = await seed(1, { status: "awaiting_confirmation" });
    const find = async (params: Record<string, string>) => (await listOrders(t.db, parseOrderListQuery(params).query)).orders.map((o) => o.id);
    expect(await find({ status: "flagged" })).toContain(flagged!.id);
    expect(await find({ status: "flagged" })).not.toContain(awaiting!.id);
    expect(await find({ status: "awaiting_confirmation" })).toContain(awaiting!.id);
    expect(await find({ status: "to_fulfil" })).toContain(flagged!.id);
    expect(await find({ q: flagged!.id })).toEqual([flagged!.id]);
    expect(await find({ q: flagged!.paymentToken! })).toEqual([flagged!.id]);
    expect(await find({ q: "flag@shop.LY" })).toEqual([flagged!.id]);
    expect(await find({ q: "+218 91 234 5678" })).toEqual([flagged!.id]);
  });

  it("pages and exports orders stamped by the database's own clock (all in one instant) each exactly once", async () => {
    // now() has microseconds; a JavaScript Date, in a cursor, has milliseconds. Stored to the millisecond, they agree.
    const ids = Array.from({ length: 7 }, () => newOrderId());
    await t.db.insert(orders).values(
      ids.map((id) => ({ id, sessionId: "clock", fingerprint: id, status: "paid" as const, amountMinor: 100, currency: "LYD", locale: "en", paymentToken: `pt-${id}`, email: "clock@shop.ly", claimExpiresAt: new Date() })),
    );
    let csv = "";
    for await (const chunk of exportOrdersCsv(t.db, { q: "clock@shop.ly" })) csv += chunk;
    expect((parse(csv) as string[][]).slice(1).map((row) => row[0]).sort()).toEqual([...ids].sort());
    const first = await listOrders(t.db, parseOrderListQuery({ q: "clock@shop.ly" }).query);
    expect(first.orders.map((o) => o.id).sort()).toEqual([...ids].sort());
  });

  it("names what it could not read in the address instead of failing", () => {
    expect(parseOrderListQuery({ status: "shipped", before: "garbage", q: "x".repeat(300) })).toEqual({ query: {}, ignored: ["status", "q", "before"] });
  });

  it("fulfils a paid order once, records who did it, and refuses anything else", async () => {
    const [paid] = await seed(1);
    const [pending] = await seed(1, { status: "pending" });
    expect(await fulfilOrder(t.db, paid!.id, "owner@shop.ly")).toBe("fulfilled");
    expect(await fulfilOrder(t.db, paid!.id, "owner@shop.ly")).toBe("already_fulfilled");
    expect(await fulfilOrder(t.db, pending!.id, "owner@shop.ly")).toBe("not_paid");
    expect(await fulfilOrder(t.db, "ord_nope", "owner@shop.ly")).toBe("not_found");
    const events = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, paid!.id));
    expect(events.map((e) => [e.type, e.data])).toEqual([["fulfilled", { by: "owner@shop.ly" }]]);
  });

  it("exports the filtered orders as CSV with decimal amounts and formulas neutralised", async () => {
    const [order] = await seed(1, { fullName: "=HYPERLINK(\"http://evil\",\"click\")", email: "csv@shop.ly", amountMinor: 10375 });
    await t.db.insert(orderLines).values({ orderId: order!.id, position: 0, productSlug: "saffron", name: "+Saffron, 2 g", unitMinor: 10375, quantity: 1 });
    let csv = "";
    for await (const chunk of exportOrdersCsv(t.db, { q: "csv@shop.ly" })) csv += chunk;
    const [header, row] = parse(csv) as string[][];
    expect(header).toEqual(["order", "created_at", "status", "flags", "fulfilled_at", "amount", "currency", "full_name", "email", "phone", "gateway", "payment_token", "lines"]);
    expect(row).toMatchObject({ 0: order!.id, 5: "103.75", 6: "LYD", 7: "'=HYPERLINK(\"http://evil\",\"click\")", 12: "1 × +Saffron, 2 g" });
  });

  it.each([
    ["=1+1", "'=1+1"],
    ["+218 91", "'+218 91"],
    ["-5", "'-5"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tTAB", "'\tTAB"],
    ["\rCR", "'\rCR"],
    ["Aisha", "Aisha"],
    ["103.75", "103.75"],
    ["", ""],
  ])("neutralises %j as %j", (value, expected) => {
    expect(neutraliseFormula(value)).toBe(expected);
  });
});
