import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { adminUsers, orderEvents, orderLines, orders, signInAttempts, type OrderStatus } from "../db/schema";
import { newOrderId } from "../ids";
import { QUICK_HASH_COST, quickAdmin as storeQuickAdmin } from "../../testing/admins";
import { setUpTestDatabase } from "../../testing/db";
import { ensureDevelopmentAdmin, saveAdmin } from "./accounts";
import { endSessions, Gate, LOCKOUT_WINDOW_MS, SIGN_IN_LIMITS, signIn, signInGates } from "./auth";
import { recordFulfilmentStep } from "../orders/fulfilment";
import { exportOrdersCsv, listOrders, parseOrderListQuery, PAGE_SIZE } from "./orders";
import { hashPassword, verifyPassword } from "./passwords";

/** The back office's rules against a real database (the run's embedded PostgreSQL, or the one of TEST_DATABASE_URL). */

const t = setUpTestDatabase();

/** An admin with a quick hash (testing/admins.ts). */
const quickAdmin = (email: string, password: string) => storeQuickAdmin(t.db, email, password);

/**
 * `count` sign-ins at once, alternating between two pools (two server instances), each with a gate wide enough for all.
 */
async function racing(count: number, attempt: (i: number) => { email: string; password: string; ip: string }) {
  const second = new Pool({ connectionString: t.url, max: 5 });
  try {
    const instances = [
      { db: t.db, gates: { ...signInGates(), strangers: new Gate(count, 0) } },
      { db: createDb(second), gates: { ...signInGates(), strangers: new Gate(count, 0) } },
    ];
    return await Promise.all(
      Array.from({ length: count }, (_, i) =>
        signIn(instances[i % 2]!.db, attempt(i), { gates: instances[i % 2]!.gates }),
      ),
    );
  } finally {
    await second.end();
  }
}

describe("passwords", () => {
  it("hashes with scrypt at OWASP's cost, and verifies the same password at the cost its hash names", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
  });
  // What follows does not depend on the cost: a quick one (a second of a core each at OWASP's).
  it("hashes with a random salt, and verifies only the same password", async () => {
    const [a, b] = await Promise.all([
      hashPassword("correct horse battery", QUICK_HASH_COST),
      hashPassword("correct horse battery", QUICK_HASH_COST),
    ]);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("", a)).toBe(false);
  });
  it("says no to a stored value that is not a hash of ours, without throwing", async () => {
    for (const stored of [
      "",
      "plain-text",
      "scrypt$x$8$1$abc$def",
      "bcrypt$2b$10$abc",
      "scrypt$99999999$8$1$abc$def",
    ]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
    }
  });
});

describe("accounts and sign-in", () => {
  it("creates an admin, resets the password, and refuses a short one", async () => {
    expect(await saveAdmin(t.db, "Owner@Shop.LY", "a-long-enough-password", QUICK_HASH_COST)).toMatchObject({
      created: true,
    });
    expect(await saveAdmin(t.db, "owner@shop.ly", "another-long-password", QUICK_HASH_COST)).toMatchObject({
      created: false,
    });
    await expect(saveAdmin(t.db, "owner@shop.ly", "short")).rejects.toThrow(RangeError);
    expect((await signIn(t.db, { email: "OWNER@shop.ly", password: "another-long-password", ip: "10.0.0.1" })).ok).toBe(
      true,
    );
    expect(await signIn(t.db, { email: "owner@shop.ly", password: "a-long-enough-password", ip: "10.0.0.1" })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("answers an unknown e-mail exactly as a wrong password", async () => {
    expect(await signIn(t.db, { email: "nobody@shop.ly", password: "whatever-it-is", ip: "10.0.0.2" })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it(`locks an e-mail at one address after ${SIGN_IN_LIMITS.emailAtAddress} failures, racing on two instances, even for the right password, there only`, async () => {
    await quickAdmin("pair@shop.ly", "the-right-password");
    const attempts = await racing(8, (i) => ({
      email: "pair@shop.ly",
      password: `wrong-password-${i}`,
      ip: "10.1.0.1",
    }));
    expect(attempts.filter((a) => !a.ok && a.reason === "invalid")).toHaveLength(SIGN_IN_LIMITS.emailAtAddress);
    expect(attempts.filter((a) => !a.ok && a.reason === "locked")).toHaveLength(8 - SIGN_IN_LIMITS.emailAtAddress);
    expect(await signIn(t.db, { email: "pair@shop.ly", password: "the-right-password", ip: "10.1.0.1" })).toEqual({
      ok: false,
      reason: "locked",
      retryAfterMinutes: 15,
    });
    // Another address is not locked by them.
    expect((await signIn(t.db, { email: "pair@shop.ly", password: "the-right-password", ip: "10.1.0.2" })).ok).toBe(
      true,
    );
    // Fifteen minutes later the window has passed.
    const later = new Date(Date.now() + LOCKOUT_WINDOW_MS + 1_000);
    expect(
      (await signIn(t.db, { email: "pair@shop.ly", password: "the-right-password", ip: "10.1.0.1" }, { now: later }))
        .ok,
    ).toBe(true);
  });

  it(`locks an e-mail for unfamiliar addresses after ${SIGN_IN_LIMITS.email} failures from anywhere, racing on two instances`, async () => {
    await quickAdmin("spread@shop.ly", "the-right-password");
    const attempts = await racing(24, (i) => ({
      email: "spread@shop.ly",
      password: "wrong-password",
      ip: `10.3.0.${i}`,
    }));
    expect(attempts.filter((a) => !a.ok && a.reason === "invalid")).toHaveLength(SIGN_IN_LIMITS.email);
    expect(attempts.filter((a) => !a.ok && a.reason === "locked")).toHaveLength(24 - SIGN_IN_LIMITS.email);
    expect(
      await signIn(t.db, { email: "spread@shop.ly", password: "the-right-password", ip: "10.3.1.1" }),
    ).toMatchObject({ ok: false, reason: "locked" });
  });

  it("lets the admin in from their usual address while an attacker elsewhere has exhausted their e-mail; 30 days unseen, it is usual no more", async () => {
    const start = Date.now();
    const at = (days: number, minutes = 0) => ({ now: new Date(start + days * 86_400_000 + minutes * 60_000) });
    await quickAdmin("victim@shop.ly", "the-right-password");
    expect(
      (await signIn(t.db, { email: "victim@shop.ly", password: "the-right-password", ip: "10.5.0.1" }, at(0))).ok,
    ).toBe(true);

    // An attacker on four addresses, five guesses each: the e-mail is exhausted.
    for (let i = 0; i < SIGN_IN_LIMITS.email; i++) {
      await signIn(t.db, { email: "victim@shop.ly", password: `guess-${i}`, ip: `10.66.0.${i % 4}` }, at(0, 1));
    }
    expect(
      await signIn(t.db, { email: "victim@shop.ly", password: "guess-x", ip: "10.66.1.1" }, at(0, 1)),
    ).toMatchObject({ ok: false, reason: "locked" });
    // The right password from an address new to this e-mail waits too (the attacker could be anywhere) …
    expect(
      await signIn(t.db, { email: "victim@shop.ly", password: "the-right-password", ip: "10.5.0.2" }, at(0, 1)),
    ).toMatchObject({ ok: false, reason: "locked" });
    // … but from the victim's usual address it signs in.
    expect(
      (await signIn(t.db, { email: "victim@shop.ly", password: "the-right-password", ip: "10.5.0.1" }, at(0, 2))).ok,
    ).toBe(true);

    // More than 30 days after the last success there, the same attack locks that address too.
    for (let i = 0; i < SIGN_IN_LIMITS.email; i++) {
      await signIn(t.db, { email: "victim@shop.ly", password: `guess-${i}`, ip: `10.66.2.${i % 4}` }, at(31));
    }
    expect(
      await signIn(t.db, { email: "victim@shop.ly", password: "the-right-password", ip: "10.5.0.1" }, at(31)),
    ).toMatchObject({ ok: false, reason: "locked" });
  });

  it("does not lock the admin of a shared office address for a colleague's six wrong passwords there", async () => {
    await quickAdmin("colleague@shop.ly", "the-colleague-password");
    await quickAdmin("boss@shop.ly", "the-boss-password");
    const results = [];
    for (let i = 0; i < 6; i++)
      results.push(await signIn(t.db, { email: "colleague@shop.ly", password: `wrong-${i}`, ip: "10.6.0.1" }));
    expect(results.map((r) => !r.ok && r.reason)).toEqual([
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "locked",
    ]);
    // The boss has never signed in from there, and still does.
    expect((await signIn(t.db, { email: "boss@shop.ly", password: "the-boss-password", ip: "10.6.0.1" })).ok).toBe(
      true,
    );
  });

  it(`throttles one address after ${SIGN_IN_LIMITS.address} failures across 30 e-mails; an e-mail familiar to it still signs in`, async () => {
    await quickAdmin("regular@shop.ly", "the-regular-password");
    expect(
      (await signIn(t.db, { email: "regular@shop.ly", password: "the-regular-password", ip: "10.7.0.1" })).ok,
    ).toBe(true);
    const emails = Array.from({ length: 30 }, (_, i) => `sprayed-${i}@shop.ly`);
    for (const email of emails) await quickAdmin(email, "a-password-nobody-guesses");
    const results = [];
    for (const round of [1, 2]) {
      for (const email of emails)
        results.push(await signIn(t.db, { email, password: `Summer2026-${round}`, ip: "10.7.0.1" }));
    }
    expect(results.filter((r) => !r.ok && r.reason === "invalid")).toHaveLength(SIGN_IN_LIMITS.address);
    expect(results.slice(SIGN_IN_LIMITS.address).every((r) => !r.ok && r.reason === "locked")).toBe(true);
    // Even the right password of a sprayed account waits at that address, not elsewhere.
    expect(
      await signIn(t.db, { email: emails[0]!, password: "a-password-nobody-guesses", ip: "10.7.0.1" }),
    ).toMatchObject({ ok: false, reason: "locked" });
    expect((await signIn(t.db, { email: emails[0]!, password: "a-password-nobody-guesses", ip: "10.7.0.2" })).ok).toBe(
      true,
    );
    // The admin who signs in from there is spared.
    expect(
      (await signIn(t.db, { email: "regular@shop.ly", password: "the-regular-password", ip: "10.7.0.1" })).ok,
    ).toBe(true);
  });

  it('never counts the address "unknown" as familiar: when the shop cannot tell addresses apart, none is usual', async () => {
    await quickAdmin("nowhere@shop.ly", "the-right-password");
    expect((await signIn(t.db, { email: "nowhere@shop.ly", password: "the-right-password", ip: "unknown" })).ok).toBe(
      true,
    );
    for (let i = 0; i < SIGN_IN_LIMITS.email; i++)
      await signIn(t.db, { email: "nowhere@shop.ly", password: `guess-${i}`, ip: `10.8.0.${i % 4}` });
    expect(
      await signIn(t.db, { email: "nowhere@shop.ly", password: "the-right-password", ip: "unknown" }),
    ).toMatchObject({ ok: false, reason: "locked" });
  });

  it("counts an attempt before its password is checked: one that never finished still counts as failed", async () => {
    await saveAdmin(t.db, "crash@shop.ly", "the-right-password"); // a full-cost hash: a second to look in
    const [row] = await t.db.select().from(signInAttempts).where(eq(signInAttempts.email, "crash@shop.ly"));
    expect(row).toBeUndefined();
    const pending = signIn(t.db, { email: "crash@shop.ly", password: "the-right-password", ip: "10.9.0.1" });
    // While its password is being checked, the attempt is already recorded as failed; a success then marks it.
    await expect
      .poll(async () =>
        (await t.db.select().from(signInAttempts).where(eq(signInAttempts.email, "crash@shop.ly"))).map(
          (a) => a.succeeded,
        ),
      )
      .toEqual([false]);
    expect((await pending).ok).toBe(true);
    expect(
      (await t.db.select().from(signInAttempts).where(eq(signInAttempts.email, "crash@shop.ly"))).map(
        (a) => a.succeeded,
      ),
    ).toEqual([true]);
  });

  it("keeps a password check's turn taken as long again after it, without delaying the answer: half a core at most", async () => {
    const gates = { ...signInGates(), strangers: new Gate(1, 0) };
    const attempt = { email: "nobody-pause@shop.ly", password: "not-a-password", ip: "10.11.0.1" };
    const started = performance.now();
    expect(await signIn(t.db, attempt, { gates })).toEqual({ ok: false, reason: "invalid" });
    const took = performance.now() - started;
    expect(await signIn(t.db, attempt, { gates })).toEqual({ ok: false, reason: "busy" });
    await new Promise((resolve) => setTimeout(resolve, took + 50));
    expect(await signIn(t.db, attempt, { gates })).toEqual({ ok: false, reason: "invalid" });
  });

  it("moves the session version at sign-out and at a password reset; a cookie of an old version bumps nothing", async () => {
    // A quick hash: the versions are under test here, not the hash (four full-cost ones were two seconds of a core).
    await quickAdmin("versions@shop.ly", "the-first-password");
    const first = await signIn(t.db, { email: "versions@shop.ly", password: "the-first-password", ip: "10.10.0.1" });
    if (!first.ok) throw new Error("signed in");
    expect(await endSessions(t.db, first.admin.id, first.sessionVersion)).toBe(true);
    // A copy of the signed-out cookie cannot sign anyone out again.
    expect(await endSessions(t.db, first.admin.id, first.sessionVersion)).toBe(false);
    const second = await signIn(t.db, { email: "versions@shop.ly", password: "the-first-password", ip: "10.10.0.1" });
    expect(second).toMatchObject({ ok: true, sessionVersion: first.sessionVersion + 1 });
    await quickAdmin("versions@shop.ly", "the-second-password");
    const [row] = await t.db.select().from(adminUsers).where(eq(adminUsers.email, "versions@shop.ly"));
    expect(row!.sessionVersion).toBe(first.sessionVersion + 2);
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
        paymentExpiresAt: new Date(Date.now() + 600_000),
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
    const [flagged] = await seed(1, {
      status: "paid",
      flags: ["paid_after_cancel"],
      email: "Flag@Shop.ly",
      phone: "0912345678",
    });
    const [awaiting] = await seed(1, { status: "awaiting_confirmation" });
    const find = async (params: Record<string, string>) =>
      (await listOrders(t.db, parseOrderListQuery(params).query)).orders.map((o) => o.id);
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
      ids.map((id) => ({
        id,
        sessionId: "clock",
        fingerprint: id,
        status: "paid" as const,
        amountMinor: 100,
        currency: "LYD",
        locale: "en",
        paymentToken: `pt-${id}`,
        email: "clock@shop.ly",
        claimExpiresAt: new Date(),
      })),
    );
    const csv = await new Response(exportOrdersCsv(t.db, { q: "clock@shop.ly" })).text();
    expect(
      (parse(csv) as string[][])
        .slice(1)
        .map((row) => row[0])
        .sort(),
    ).toEqual([...ids].sort());
    const first = await listOrders(t.db, parseOrderListQuery({ q: "clock@shop.ly" }).query);
    expect(first.orders.map((o) => o.id).sort()).toEqual([...ids].sort());
  });

  it("names what it could not read in the address instead of failing", () => {
    expect(parseOrderListQuery({ status: "shipped", before: "garbage", q: "x".repeat(300) })).toEqual({
      query: {},
      ignored: ["status", "q", "before"],
    });
  });

  it("fulfils a paid order once, records who did it, and refuses anything else", async () => {
    const [paid] = await seed(1);
    const [pending] = await seed(1, { status: "pending" });
    const fulfil = (id: string) =>
      recordFulfilmentStep(t.db, id, "fulfilled", { by: "owner@shop.ly", notify: false }).then((r) => r.result);
    expect(await fulfil(paid!.id)).toBe("done");
    expect(await fulfil(paid!.id)).toBe("already");
    expect(await fulfil(pending!.id)).toBe("not_paid");
    expect(await fulfil("ord_nope")).toBe("not_found");
    const events = await t.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, paid!.id))
      .orderBy(orderEvents.id);
    expect(events.map((e) => [e.type, e.data])).toEqual([["fulfilled", { by: "owner@shop.ly" }]]);
  });

  it("exports the filtered orders as CSV with decimal amounts and formulas neutralised", async () => {
    const [order] = await seed(1, {
      fullName: '=HYPERLINK("http://evil","click")',
      email: "csv@shop.ly",
      amountMinor: 10375,
    });
    await t.db.insert(orderLines).values({
      orderId: order!.id,
      position: 0,
      productSlug: "saffron",
      name: "+Saffron, 2 g",
      unitMinor: 10375,
      quantity: 1,
    });
    const csv = await new Response(exportOrdersCsv(t.db, { q: "csv@shop.ly" })).text();
    // The columns and their order are lib/admin/orders.test.ts's to check; here, what the cells hold.
    const [header, row] = parse(csv) as string[][];
    const cells = Object.fromEntries(header!.map((column, i) => [column, row![i]]));
    expect(cells).toMatchObject({
      order: order!.id,
      amount: "103.75",
      currency: "LYD",
      full_name: '\'=HYPERLINK("http://evil","click")',
      lines: "1 × +Saffron, 2 g",
    });
  });
});
