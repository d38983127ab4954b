import { count, eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { promoCodeMisses } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { createTestPromoCode } from "../../testing/promo-codes";
import { checkPromoCode, findPromoCode, type PromoCheckout } from "./check";
import { deleteOldPromoMisses, PROMO_MISSES_ALLOWED, PROMO_MISSES_WINDOW_MS } from "./guesses";

/** The checks of a code before the claim, and the budget of wrong guesses, against a real database. */

const t = setUpTestDatabase();
let addresses = 0;
/** A checkout of 42.50 LYD of lines from an address of its own (unless given). */
const checkout = (overrides: Partial<PromoCheckout> = {}): PromoCheckout => ({
  linesMinor: 4_250,
  clientAddress: `198.51.100.${++addresses}`,
  ...overrides,
});

describe("checkPromoCode", () => {
  it("finds a code typed in any case, with spaces around it or Arabic-Indic digits; a turned-off code reads as unknown", async () => {
    const eid = await createTestPromoCode(t.db, { code: "EID10" });
    expect(await checkPromoCode(t.db, "  eid١٠ ", checkout())).toEqual({ ok: true, code: eid });
    expect(await findPromoCode(t.db, "Eid10")).toEqual(eid);
    expect(await findPromoCode(t.db, "EID 10!")).toBeUndefined();
    expect(await checkPromoCode(t.db, "EID11", checkout())).toEqual({ ok: false, why: "unknown" });
    await createTestPromoCode(t.db, { code: "RAMADAN", enabled: false });
    expect(await checkPromoCode(t.db, "ramadan", checkout())).toEqual({ ok: false, why: "unknown" });
  });

  it("says when a code is not valid yet (from when), expired, or under its minimum (by how much)", async () => {
    const now = new Date("2026-03-20T10:00:00Z");
    const startsAt = new Date("2026-03-30T22:00:00Z"); // Eid, midnight in Tripoli
    await createTestPromoCode(t.db, { code: "EIDSOON", startsAt });
    await createTestPromoCode(t.db, { code: "WINTER", endsAt: new Date("2026-03-01T00:00:00Z") });
    await createTestPromoCode(t.db, { code: "BIGCART", minLinesMinor: 5_000 });
    expect(await checkPromoCode(t.db, "eidsoon", checkout({ now }))).toEqual({ ok: false, why: "not_yet", startsAt });
    expect(await checkPromoCode(t.db, "winter", checkout({ now }))).toEqual({ ok: false, why: "expired" });
    expect(await checkPromoCode(t.db, "bigcart", checkout({ now }))).toEqual({
      ok: false,
      why: "under_minimum",
      moreMinor: 750,
    });
    expect((await checkPromoCode(t.db, "bigcart", checkout({ now, linesMinor: 5_000 }))).ok).toBe(true);
    // The end is the first instant it no longer applies.
    expect(await checkPromoCode(t.db, "winter", checkout({ now: new Date("2026-03-01T00:00:00Z") }))).toMatchObject({
      why: "expired",
    });
    // None of these is a wrong guess: they cost the address nothing.
    const address = checkout().clientAddress;
    for (const code of ["eidsoon", "winter", "bigcart"])
      await checkPromoCode(t.db, code, { ...checkout({ now }), clientAddress: address });
    expect(
      await t.db.select({ n: count() }).from(promoCodeMisses).where(eq(promoCodeMisses.clientAddress, address)),
    ).toEqual([{ n: 0 }]);
  });

  it("says used up once its uses are held or spent, and used up by this customer (phone, or e-mail in any case); this session's own hold aside", async () => {
    const code = await createTestPromoCode(t.db, { maxUses: 2, maxUsesPerCustomer: 1 });
    const carrying = { promoCodeId: code.id, promoCode: code.code };
    await storeOrder(t.db, { ...carrying, status: "paid", phone: "0911111111", email: "Aisha@Example.ly" });
    const customer = { phone: "0922222222", email: "aisha@example.ly" };
    expect(await checkPromoCode(t.db, code.code, checkout({ customer }))).toEqual({
      ok: false,
      why: "customer_used_up",
    });
    expect((await checkPromoCode(t.db, code.code, checkout({ customer: { phone: "0922222222" } }))).ok).toBe(true);
    // A failed payment holds nothing; a live payment page does.
    await storeOrder(t.db, { ...carrying, status: "failed" });
    expect((await checkPromoCode(t.db, code.code, checkout())).ok).toBe(true);
    await storeOrder(t.db, { ...carrying, sessionId: "session-b" });
    expect(await checkPromoCode(t.db, code.code, checkout())).toEqual({ ok: false, why: "used_up" });
    // The session paying for that hold is not told its own hold used the code up (the claim sends it to its order).
    expect((await checkPromoCode(t.db, code.code, checkout({ sessionId: "session-b" }))).ok).toBe(true);
  });
});

describe("the budget of wrong guesses", () => {
  it(`lets an address try ${PROMO_MISSES_ALLOWED} wrong codes in 2 minutes; then every code it tries, valid or not, is too many tries until the window passes`, async () => {
    const valid = await createTestPromoCode(t.db, {});
    const usedUp = await createTestPromoCode(t.db, { maxUses: 1 });
    await storeOrder(t.db, { promoCodeId: usedUp.id, promoCode: usedUp.code, status: "paid" });
    const clientAddress = "203.0.113.50";
    const start = Date.now();
    const at = (ms: number) => ({ clientAddress, now: new Date(start + ms) });
    for (let i = 0; i < PROMO_MISSES_ALLOWED; i++)
      expect(await checkPromoCode(t.db, `WRONG${i}`, checkout(at(i * 1_000)))).toEqual({ ok: false, why: "unknown" });
    // Spent: a wrong code, a used-up one and a valid one get the same answer; 2 minutes after the first miss, it is free.
    const spent = { ok: false, why: "too_many_tries", retryAfterMinutes: 2 };
    expect(await checkPromoCode(t.db, "WRONG9", checkout(at(10_000)))).toEqual(spent);
    expect(await checkPromoCode(t.db, usedUp.code, checkout(at(10_000)))).toEqual(spent);
    expect(await checkPromoCode(t.db, valid.code, checkout(at(10_000)))).toEqual(spent);
    expect(await checkPromoCode(t.db, valid.code, checkout(at(PROMO_MISSES_WINDOW_MS - 1_000)))).toMatchObject({
      retryAfterMinutes: 1,
    });
    // Another address is not held back by this one's guesses.
    expect((await checkPromoCode(t.db, valid.code, checkout())).ok).toBe(true);
    // The oldest miss leaves the window: one more try.
    expect((await checkPromoCode(t.db, valid.code, checkout(at(PROMO_MISSES_WINDOW_MS + 1)))).ok).toBe(true);
    expect(await checkPromoCode(t.db, "WRONGA", checkout(at(PROMO_MISSES_WINDOW_MS + 2)))).toMatchObject({
      why: "unknown",
    });
    expect(await checkPromoCode(t.db, valid.code, checkout(at(PROMO_MISSES_WINDOW_MS + 3)))).toMatchObject({
      why: "too_many_tries",
    });
  });

  it("holds guesses sent at once on two instances to the budget: of 12 wrong codes, 5 are told unknown", async () => {
    const second = new Pool({ connectionString: t.url, max: 5 });
    try {
      const other = createDb(second);
      const clientAddress = "203.0.113.60";
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          checkPromoCode(i % 2 ? other : t.db, `GUESS${i}`, checkout({ clientAddress })),
        ),
      );
      expect(answers.filter((answer) => !answer.ok && answer.why === "unknown")).toHaveLength(PROMO_MISSES_ALLOWED);
      expect(answers.filter((answer) => !answer.ok && answer.why === "too_many_tries")).toHaveLength(7);
      const misses = await t.db.select().from(promoCodeMisses).where(eq(promoCodeMisses.clientAddress, clientAddress));
      expect(misses).toHaveLength(PROMO_MISSES_ALLOWED);
    } finally {
      await second.end();
    }
  });

  it("deletes misses once they are older than the window: they change no answer", async () => {
    const now = new Date("2027-01-01T00:00:00Z");
    await t.db.insert(promoCodeMisses).values([
      { clientAddress: "203.0.113.70", at: new Date(now.getTime() - PROMO_MISSES_WINDOW_MS - 1) },
      { clientAddress: "203.0.113.70", at: new Date(now.getTime() - 1_000) },
    ]);
    expect(await deleteOldPromoMisses(t.db, now)).toBeGreaterThanOrEqual(1);
    const left = await t.db.select().from(promoCodeMisses).where(eq(promoCodeMisses.clientAddress, "203.0.113.70"));
    expect(left).toHaveLength(1);
  });
});
