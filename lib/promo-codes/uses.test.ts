import { and, eq } from "drizzle-orm";
import { Pool } from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { priceCart, type PricedCart } from "../cart";
import { claimCheckout, type Claim } from "../checkout/claim";
import { priceCheckout } from "../checkout/pricing";
import { createDb, type Db } from "../db/client";
import { orders, type PromoCodeRow } from "../db/schema";
import { createTestProduct } from "../../testing/catalogue";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { createTestPromoCode } from "../../testing/promo-codes";
import { promoCodeUses } from "./uses";

/**
 * A code's uses held by the checkout's claim, against a real database on two pools (two server instances): no payment
 * service, a claimed order is `started` and holds its use until its deadline, as a checkout on its way to the payment
 * page does.
 */

const t = setUpTestDatabase();
let cart: PricedCart;
beforeAll(async () => {
  const product = await createTestProduct(t.db, { priceMinor: 4_250 });
  cart = await priceCart(t.db, { lines: [{ productId: product, quantity: 1, seenMinor: 0 }] });
});

let customers = 0;
/** The claim of a new checkout carrying `code`, by a customer of their own (unless `phone` or `email` is given). */
function claim(
  db: Db,
  code: PromoCodeRow,
  {
    phone,
    email,
    sessionId,
    fingerprint,
  }: { phone?: string; email?: string; sessionId?: string; fingerprint?: string } = {},
): Promise<Claim> {
  const n = ++customers;
  return claimCheckout(db, {
    sessionId: sessionId ?? crypto.randomUUID(),
    fingerprint: fingerprint ?? crypto.randomUUID(),
    clientAddress: `198.51.${Math.floor(n / 250)}.${n % 250}`,
    budget: 1_000,
    heldPerAddress: 10,
    locale: "en",
    paymentMethod: "online",
    details: {
      full_name: "Aisha Ben Ali",
      phone: phone ?? `091${String(n).padStart(7, "0")}`,
      email: email ?? `customer${n}@example.ly`,
    },
    cart,
    price: priceCheckout(cart.totalMinor, undefined, undefined, code),
    promo: code,
  });
}

/** Runs `count` claims at once, every other one on a second pool; returns how many ended each way. */
async function race(count: number, run: (db: Db, i: number) => Promise<Claim>): Promise<Record<string, number>> {
  const second = new Pool({ connectionString: t.url, max: 5 });
  try {
    const other = createDb(second);
    const claims = await Promise.all(Array.from({ length: count }, (_, i) => run(i % 2 ? other : t.db, i)));
    const outcome = (c: Claim) => (c.kind === "promo_refused" ? c.why : c.kind);
    return claims.reduce<Record<string, number>>(
      (tally, c) => ({ ...tally, [outcome(c)]: (tally[outcome(c)] ?? 0) + 1 }),
      {},
    );
  } finally {
    await second.end();
  }
}

/** A claimed order's columns once its payment page exists, the page living `ms` more. */
const paying = (id: string, ms: number) =>
  ({
    status: "pending",
    paymentToken: `pt-${id}`,
    paymentUrl: `https://pay.example.ly/pay/sandbox/v1/user/payment/preview/pt-${id}`,
    paymentExpiresAt: new Date(Date.now() + ms),
  }) as const;

const carrying = async (code: PromoCodeRow) =>
  t.db
    .select()
    .from(orders)
    .where(and(eq(orders.promoCodeId, code.id), eq(orders.status, "started")));

describe("a code's last uses, raced for", () => {
  it("gives a code with 10 uses left to exactly 10 of 50 customers racing on two instances; 40 are told it is used up", async () => {
    const code = await createTestPromoCode(t.db, { maxUses: 12 });
    for (const phone of ["0910000001", "0910000002"])
      await storeOrder(t.db, { promoCodeId: code.id, promoCode: code.code, status: "paid", phone });
    expect(await race(50, (db) => claim(db, code))).toEqual({ claimed: 10, used_up: 40 });
    const held = await carrying(code);
    expect(held).toHaveLength(10);
    expect(held.every((order) => order.discountMinor === 425 && order.promoCode === code.code)).toBe(true);
    expect(await promoCodeUses(t.db, [code.id])).toEqual(new Map([[code.id, { used: 2, held: 10 }]]));
  });

  it("gives a code once per customer: of 10 checkouts by one phone racing on two instances, 1 carries it; the same e-mail is the same customer", async () => {
    const code = await createTestPromoCode(t.db, { maxUsesPerCustomer: 1 });
    const phone = "0925555555";
    expect(await race(10, (db) => claim(db, code, { phone }))).toEqual({ claimed: 1, customer_used_up: 9 });
    const [mine] = await carrying(code);
    expect(await claim(t.db, code, { email: mine!.email!.toUpperCase() })).toEqual({
      kind: "promo_refused",
      why: "customer_used_up",
    });
    expect((await claim(t.db, code)).kind).toBe("claimed");
  });
});

describe("a use given back", () => {
  it("gives a single-use code back the moment its order stops holding: failed, cancelled, or its payment page dead", async () => {
    const code = await createTestPromoCode(t.db, { maxUses: 1 });
    for (const end of [
      { status: "failed" },
      { status: "cancelled" },
      { paymentExpiresAt: new Date(Date.now() - 1) },
    ] as const) {
      const first = await claim(t.db, code);
      expect(first.kind).toBe("claimed");
      expect(await claim(t.db, code)).toEqual({ kind: "promo_refused", why: "used_up" });
      const id = first.kind === "claimed" ? first.order.id : "";
      await t.db
        .update(orders)
        .set({ ...paying(id, 600_000), ...end })
        .where(eq(orders.id, id));
      expect((await promoCodeUses(t.db, [code.id])).get(code.id)).toBeUndefined();
    }
    expect((await claim(t.db, code)).kind).toBe("claimed");
  });

  it("never counts a checkout's own hold against it: its pending payment about to die, submitted again, is claimed anew", async () => {
    const code = await createTestPromoCode(t.db, { maxUses: 1, maxUsesPerCustomer: 1 });
    const same = { sessionId: crypto.randomUUID(), fingerprint: crypto.randomUUID(), phone: "0947777777" };
    const first = await claim(t.db, code, same);
    // Its page has a minute left: too little to send the customer back to it (lib/checkout/claim.ts, canResume).
    await t.db
      .update(orders)
      .set(paying(first.kind === "claimed" ? first.order.id : "", 60_000))
      .where(eq(orders.id, first.kind === "claimed" ? first.order.id : ""));
    expect((await claim(t.db, code, same)).kind).toBe("claimed");
    expect(await claim(t.db, code)).toEqual({ kind: "promo_refused", why: "used_up" });
  });
});
