import { and, eq, inArray, sql } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart, type PricedCart } from "../cart";
import { createDb } from "../db/client";
import { productsForCheckout } from "../catalog/products";
import {
  cashBlockedPhones,
  cashOnDelivery,
  deliveryZones,
  emailOutbox,
  orderEvents,
  orderLines,
  orders,
  products,
  storePickup,
  type PromoCodeRow,
} from "../db/schema";
import { settle } from "../orders/settle";
import { listDeliveryZones, readPickup } from "../delivery/zones";
import { parseEnv } from "../env";
import { DEFAULT_GATEWAYS } from "../gateways";
import { ACCESS_TOKEN_LIFETIME_MS, PaymentError } from "../payments";
import { readCashSettings } from "../cash/settings";
import { confirmCashOrder } from "../cash/moves";
import { createTestProduct, seedTestCatalogue, TEST_PRODUCTS } from "../../testing/catalogue";
import { createTestDatabase, type TestDatabase } from "../../testing/db";
import { createTestPromoCode } from "../../testing/promo-codes";
import { promoCodeUses } from "../promo-codes/uses";
import { startEmulator, type RunningEmulator } from "../../testing/emulator";
import { CashRefusedError, OrderStoreError, OutOfStockError, PaymentBudgetError, PromoCodeError } from "./errors";
import { placeOrder, type PlacedOrder, type PlaceOrderInput } from "./place-order";
import { canResume } from "./claim";
import { checkoutFingerprint } from "./fingerprint";
import { checkoutFormSchema } from "./form";
import { priceCheckout } from "./pricing";
import { PriceChangedError, shownPrices } from "./shown-prices";

/**
 * placeOrder against a real database (the run's embedded PostgreSQL, or the one of TEST_DATABASE_URL) and the emulator
 * over HTTP.
 */

// E-mail on, as the shop's environment turns it on: a move to paid queues the receipt and the merchant's notice.
vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
vi.stubEnv("MAIL_FROM", "Medina Market <shop@medina.example>");
vi.stubEnv("MERCHANT_EMAIL", "owner@medina.example");

let t: TestDatabase;
let emulator: RunningEmulator;
/** Carts of saffron (18.75 LYD) priced from the test database: two and three units. */
let twoSaffron: PricedCart;
let threeSaffron: PricedCart;
let saffronId: number;
beforeAll(async () => {
  [t, emulator] = await Promise.all([createTestDatabase(), startEmulator()]);
  saffronId = (await seedTestCatalogue(t.db)).saffron;
  const saffron = (quantity: number) =>
    priceCart(t.db, { lines: [{ productId: saffronId, quantity, seenMinor: 1_875 }] });
  [twoSaffron, threeSaffron] = await Promise.all([saffron(2), saffron(3)]);
  process.env.PAYMENT_API_BASE_URL = emulator.apiBase;
  process.env.PAYMENT_CLIENT_ID = "sandbox-demo-client-id";
  process.env.PAYMENT_CLIENT_SECRET = "sandbox-demo-client-secret";
}, 30_000);
afterAll(async () => {
  await Promise.all([t?.close(), emulator?.stop()]);
});
beforeEach(async () => {
  await emulator.control("/reset", {});
});

type EmulatorPayment = {
  token: string;
  amount: string;
  custom: string;
  return_url: string;
  cancel_url: string;
  full_name: string | null;
  status: string;
};
const payments = async () => (await emulator.control<{ payments: EmulatorPayment[] }>("/payments")).payments;

let sessions = 0;
/**
 * A checkout of a fresh browser session, from an address of its own: two saffron by default, submitted from a form
 * that showed its cart's prices and its zone's fee (unless `shown` is given).
 */
function checkout(overrides: Partial<PlaceOrderInput> = {}): PlaceOrderInput {
  const session = ++sessions;
  const input = {
    sessionId: `session-${session}-${crypto.randomUUID()}`,
    cartId: crypto.randomUUID(),
    cart: twoSaffron,
    details: { full_name: "Aisha Ben Ali", email: "aisha@example.ly" },
    locale: "en" as const,
    siteUrl: "https://shop.example.ly",
    clientAddress: `198.51.100.${session % 250}`,
    ...overrides,
  };
  return { shown: shownPrices(input.cart, input.zone ? [input.zone] : []), ...input };
}

let phones = 0;
/**
 * A checkout of a fresh browser session paid in cash on delivery (picked up: no zone), from a phone of its own, with
 * `cashFeeMinor` (default 0), submitted from a form that offered cash at that fee.
 */
function cashCheckout(overrides: Partial<PlaceOrderInput> = {}): PlaceOrderInput {
  const phone = `091${String(++phones).padStart(7, "0")}`;
  const input = checkout({
    details: { full_name: "Aisha Ben Ali", email: "aisha@example.ly", phone, delivery: { method: "pickup" } },
    paymentMethod: "cash",
    cashFeeMinor: 0,
    ...overrides,
  });
  return { ...input, shown: shownPrices(input.cart, input.zone ? [input.zone] : [], input.cashFeeMinor) };
}

/** The payment URL of a placement that must have gone to a payment page. */
function paymentUrlOf(placed: PlacedOrder): string {
  if (placed.kind !== "pay") throw new Error(`expected a payment page, got the paid order ${placed.id}`);
  return placed.paymentUrl;
}

describe("placeOrder", () => {
  it("stores the order and its lines as sold, then creates the payment with the server's prices and the shop's URLs", async () => {
    const input = checkout({ locale: "ar" });
    const placed = await placeOrder(t.db, input);

    const [payment] = await payments();
    expect(await payments()).toHaveLength(1);
    expect(payment).toMatchObject({
      amount: "37.50",
      custom: placed.id,
      return_url: "https://shop.example.ly/checkout/return",
      cancel_url: "https://shop.example.ly/checkout/cancel",
      full_name: "Aisha Ben Ali",
    });
    expect(placed).toEqual({
      kind: "pay",
      id: placed.id,
      paymentUrl: expect.stringContaining(`/preview/${payment!.token}`),
    });

    const order = await t.db.query.orders.findFirst({ where: eq(orders.id, placed.id) });
    expect(order).toMatchObject({
      status: "pending",
      amountMinor: 3750,
      currency: "LYD",
      paymentToken: payment!.token,
      email: "aisha@example.ly",
      locale: "ar",
    });
    const lines = await t.db.select().from(orderLines).where(eq(orderLines.orderId, placed.id));
    expect(lines).toEqual([
      {
        orderId: placed.id,
        position: 0,
        productId: saffronId,
        productSlug: "saffron",
        name: TEST_PRODUCTS.find((product) => product.slug === "saffron")!.nameAr,
        unitMinor: 1875,
        quantity: 2,
      },
    ]);
    const events = await t.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, placed.id))
      .orderBy(orderEvents.id);
    expect(events.map((e) => e.type)).toEqual(["created", "payment_created"]);
  });

  it("resumes the same checkout's pending payment instead of creating another", async () => {
    const input = checkout();
    const first = await placeOrder(t.db, input);
    const again = await placeOrder(t.db, input);
    expect(again).toEqual(first);
    expect(await payments()).toHaveLength(1);
  });

  it("makes one payment for ten identical submissions racing on two server instances", async () => {
    const second = new Pool({ connectionString: t.url, max: 5 });
    const other = createDb(second);
    try {
      const input = checkout();
      const placed = await Promise.all(Array.from({ length: 10 }, (_, i) => placeOrder(i % 2 ? other : t.db, input)));
      expect(new Set(placed.map(paymentUrlOf)).size).toBe(1);
      expect(await payments()).toHaveLength(1);
      expect(await t.db.select().from(orders).where(eq(orders.sessionId, input.sessionId))).toHaveLength(1);
    } finally {
      await second.end();
    }
  });

  it("starts a new payment when the cart or the details changed, or the session is another", async () => {
    const input = checkout();
    const first = await placeOrder(t.db, input);
    const changedCart = await placeOrder(t.db, {
      ...input,
      cart: threeSaffron,
      shown: shownPrices(threeSaffron, []),
    });
    const changedDetails = await placeOrder(t.db, {
      ...input,
      details: { ...input.details, payment_gateway: "sadad" },
    });
    const otherSession = await placeOrder(t.db, { ...input, sessionId: "another-session" });
    expect(new Set([first.id, changedCart.id, changedDetails.id, otherSession.id]).size).toBe(4);
    expect(await payments()).toHaveLength(4);
  });

  it.each(["paid", "awaiting_confirmation"] as const)(
    "never pays for a cart twice: the same cart, once %s, goes to its order; a new cart is a new order",
    async (status) => {
      const input = checkout();
      const first = await placeOrder(t.db, input);
      await t.db.update(orders).set({ status }).where(eq(orders.id, first.id));
      expect(await placeOrder(t.db, input)).toEqual({ kind: "paid", id: first.id });
      expect(await payments()).toHaveLength(1);

      // The cart was emptied and filled again (lib/cart.ts gives it a new id): buying the same again is deliberate.
      const again = await placeOrder(t.db, { ...input, cartId: crypto.randomUUID() });
      expect(again).toMatchObject({ kind: "pay" });
      expect(again.id).not.toBe(first.id);
      expect(await payments()).toHaveLength(2);
    },
  );

  it("sends ten submissions of one cart racing on two instances, around a payment confirmed at once, to that one payment", async () => {
    // A service that confirms a payment as soon as its page opens: the first tab's page opens, and the other tabs'
    // submissions arrive before the customer's return could empty the cart (or after the customer closed the page).
    const second = new Pool({ connectionString: t.url, max: 5 });
    const other = createDb(second);
    try {
      const input = checkout();
      const early = await Promise.all(Array.from({ length: 5 }, (_, i) => placeOrder(i % 2 ? other : t.db, input)));
      const [order] = await t.db.select().from(orders).where(eq(orders.sessionId, input.sessionId));
      await t.db.update(orders).set({ status: "paid" }).where(eq(orders.id, order!.id));
      const late = await Promise.all(Array.from({ length: 5 }, (_, i) => placeOrder(i % 2 ? other : t.db, input)));

      expect(new Set(early.map(paymentUrlOf)).size).toBe(1);
      for (const placed of late) expect(placed).toEqual({ kind: "paid", id: order!.id });
      expect(await payments()).toHaveLength(1);
      expect(await t.db.select().from(orders).where(eq(orders.sessionId, input.sessionId))).toHaveLength(1);
    } finally {
      await second.end();
    }
  });

  it("does not resume a payment whose page is about to die", async () => {
    const input = checkout();
    const old = await placeOrder(t.db, input);
    const inAMinute = new Date(Date.now() + 60_000);
    await t.db.update(orders).set({ paymentExpiresAt: inAMinute }).where(eq(orders.id, old.id));
    const fresh = await placeOrder(t.db, input);
    expect(fresh.id).not.toBe(old.id);
    expect(await payments()).toHaveLength(2);
  });

  it("records a refused payment as failed, tells every racing submission, and lets the next one try again", async () => {
    // The token call is slow, so the second submission arrives while the first is in flight; create then says 400.
    await emulator.control("/faults", { route: "token", kind: "delay", delayMs: 400 });
    await emulator.control("/faults", { route: "create", kind: "status", status: 400 });
    const input = checkout();
    const results = await Promise.allSettled([placeOrder(t.db, input), placeOrder(t.db, input)]);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(PaymentError);
      expect(((result as PromiseRejectedResult).reason as PaymentError).kind).toBe("rejected");
    }
    const stored = await t.db.select().from(orders).where(eq(orders.sessionId, input.sessionId));
    expect(stored).toMatchObject([{ status: "failed", failure: "rejected", paymentToken: null }]);

    const retry = await placeOrder(t.db, input);
    expect(retry.id).not.toBe(stored[0]!.id);
    expect(await payments()).toHaveLength(1);
  });

  it("takes over a claim whose server died, after the claim's deadline", async () => {
    const input = checkout();
    const fingerprint = await checkoutFingerprint(input, priceCheckout(input.cart.totalMinor));
    // What a server that died between claiming and paying leaves behind.
    await t.db.insert(orders).values({
      id: "ord_0000000000000dead",
      sessionId: input.sessionId,
      fingerprint,
      status: "started",
      amountMinor: 3750,
      currency: "LYD",
      locale: "en",
      claimExpiresAt: new Date(Date.now() - 1_000),
    });
    const placed = await placeOrder(t.db, input);
    expect(placed.id).toBe("ord_0000000000000dead");
    expect(await payments()).toHaveLength(1);
    const events = await t.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, placed.id))
      .orderBy(orderEvents.id);
    expect(events.map((e) => e.type)).toEqual(["claim_taken_over", "payment_created"]);
  });

  it("lets a client address start PAYMENTS_PER_ADDRESS new payments in ten minutes; resubmitting is free", async () => {
    const from = (clientAddress: string) => checkout({ clientAddress });
    const budget = { paymentsPerAddress: 3 };
    const [first] = await Promise.all([1, 2, 3].map(async () => placeOrder(t.db, from("203.0.113.7"), budget)));
    const firstInput = (await t.db.query.orders.findFirst({ where: eq(orders.id, first!.id) }))!;

    const refused = await placeOrder(t.db, from("203.0.113.7"), budget).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentBudgetError);
    expect((refused as PaymentBudgetError).retryAfterMinutes).toBe(10);
    expect(await payments()).toHaveLength(3); // the service was not asked

    // Another address is not held back; the same address going back to its own checkout costs nothing.
    expect(await placeOrder(t.db, from("203.0.113.8"), budget)).toMatchObject({ kind: "pay" });
    const resumed = await t.db.query.orders.findFirst({ where: eq(orders.id, firstInput.id) });
    expect(resumed?.clientAddress).toBe("203.0.113.7");

    // Ten minutes later the address may start payments again.
    await t.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(orders.clientAddress, "203.0.113.7"));
    expect(await placeOrder(t.db, from("203.0.113.7"), budget)).toMatchObject({ kind: "pay" });
    expect(await payments()).toHaveLength(5);
  });

  it("holds an address's budget when its submissions race on two instances: exactly the budget's payments start", async () => {
    const second = new Pool({ connectionString: t.url, max: 5 });
    const other = createDb(second);
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          placeOrder(i % 2 ? other : t.db, checkout({ clientAddress: "203.0.113.99" }), { paymentsPerAddress: 3 }),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
      for (const result of results)
        if (result.status === "rejected") expect(result.reason).toBeInstanceOf(PaymentBudgetError);
      expect(await payments()).toHaveLength(3);
    } finally {
      await second.end();
    }
  });

  it("keeps the checkout open for everyone while one address floods it: the service's rate limit is not spent", async () => {
    // The service allows 60 calls a minute from the shop's address, two per new payment (docs/payment-service.md,
    // "Rate limit"). One script submits 40 checkouts, each from a fresh session; then twelve customers elsewhere pay.
    await emulator.control("/config", { rateLimit: 60 });
    const flood = Array.from({ length: 40 }, () => checkout({ clientAddress: "192.0.2.66" }));
    for (let i = 0; i < flood.length; i += 4)
      await Promise.allSettled(flood.slice(i, i + 4).map((input) => placeOrder(t.db, input)));
    const customers = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => placeOrder(t.db, checkout({ clientAddress: `198.18.0.${i + 1}` }))),
    );
    expect(customers.map((result) => (result.status === "fulfilled" ? result.value.kind : result.reason))).toEqual(
      Array(12).fill("pay"),
    );
  });

  it("creates no payment when the database is down, and says so", async () => {
    const down = createDb(
      new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 1_000 }),
    );
    await expect(placeOrder(down, checkout())).rejects.toBeInstanceOf(OrderStoreError);
    expect(await payments()).toHaveLength(0);
  });
});

describe("stock", () => {
  /** A cart of `quantity` units of a product, priced from the database as the checkout prices it. */
  const cartOf = (productId: number, quantity = 1) =>
    priceCart(t.db, { lines: [{ productId, quantity, seenMinor: 0 }] });
  const available = async (productId: number) =>
    (await productsForCheckout(t.db, [productId])).get(productId)!.available;

  it("sells the last 3 units to exactly 3 of 50 customers racing on two instances, half of them paying cash; the others are told what is left, and expired payments and cash orders give them back", async () => {
    const last = await createTestProduct(t.db, { stock: 3, nameEn: "Honey, the last jars" });
    const cart = await cartOf(last);
    const second = new Pool({ connectionString: t.url, max: 5 });
    const other = createDb(second);
    try {
      // On each instance, every other customer pays cash on delivery.
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          placeOrder(i % 2 ? other : t.db, Math.floor(i / 2) % 2 ? cashCheckout({ cart }) : checkout({ cart })),
        ),
      );
      const paid = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      expect(paid).toHaveLength(3);
      // Exactly 3 orders hold the 3 units: the online ones on a payment page, the cash ones placed.
      const holders = await t.db
        .select({ status: orders.status })
        .from(orders)
        .where(inArray(orders.id, sql`(select order_id from order_lines where product_id = ${last})`));
      expect(holders.filter((order) => order.status === "pending" || order.status === "placed")).toHaveLength(3);
      expect(await payments()).toHaveLength(paid.filter((placed) => placed.kind === "pay").length);
      expect(holders.filter((order) => order.status === "placed")).toHaveLength(
        paid.filter((placed) => placed.kind === "placed").length,
      );
      for (const result of results) {
        if (result.status === "fulfilled") continue;
        expect(result.reason).toBeInstanceOf(OutOfStockError);
        // On hand would cover them, but the 3 paying hold it: "held by other checkouts — try again in N minutes".
        expect((result.reason as OutOfStockError).lines).toEqual([
          { name: expect.objectContaining({ en: "Honey, the last jars" }), available: 0, freeAt: expect.any(Date) },
        ]);
      }
      expect(await available(last)).toBe(0);
    } finally {
      await second.end();
    }

    // Their payment pages die unpaid, and the cash orders' calls never come: the units are for sale again at once,
    // without waiting for the scheduled job.
    await t.db
      .update(orders)
      .set({ paymentExpiresAt: new Date(Date.now() - 1_000), confirmBy: new Date(Date.now() - 1_000) })
      .where(inArray(orders.id, sql`(select order_id from order_lines where product_id = ${last})`));
    expect(await available(last)).toBe(3);
  });

  it("tells the customer how many are left when the cart wants more", async () => {
    const few = await createTestProduct(t.db, { stock: 2 });
    await expect(placeOrder(t.db, checkout({ cart: await cartOf(few, 3) }))).rejects.toMatchObject({
      lines: [{ available: 2 }],
    });
    expect(await payments()).toHaveLength(0);
  });

  it("a payment confirmed after its hold ended, when the last unit went to another: paid anyway, flagged oversold, the merchant told", async () => {
    const one = await createTestProduct(t.db, { stock: 1 });
    const late = await placeOrder(t.db, checkout({ cart: await cartOf(one) }));
    // Its payment page dies; another customer buys the last unit and pays.
    await t.db
      .update(orders)
      .set({ paymentExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(orders.id, late.id));
    const first = await placeOrder(t.db, checkout({ cart: await cartOf(one) }));
    const tokenOf = async (id: string) =>
      (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!.paymentToken!;
    const confirm = async (id: string) =>
      settle(t.db, id, { kind: "payment_confirmed", paymentToken: await tokenOf(id), delivery: {} });
    expect(await confirm(first.id)).toMatchObject({ to: "paid" });
    expect(await available(one)).toBe(0);

    // The late payment is confirmed all the same: money wins.
    expect(await confirm(late.id)).toMatchObject({ from: "pending", to: "paid", oversold: true });
    const order = await t.db.query.orders.findFirst({ where: eq(orders.id, late.id) });
    expect(order).toMatchObject({ status: "paid", flags: ["oversold"] });
    const [product] = await t.db.select({ stock: products.stock }).from(products).where(eq(products.id, one));
    expect(product!.stock).toBe(-1);
    const notices = await t.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, late.id));
    expect(notices.map((email) => email.kind).sort()).toEqual(["merchant_notice", "receipt"]);
  });
});

describe("a Vercel preview without SITE_URL", () => {
  it("sends the service the preview's own return and cancel URLs, never production's", async () => {
    // The configuration a preview deployment's server reads: Vercel's own variables and no SITE_URL.
    const env = parseEnv(
      {
        PAYMENT_API_BASE_URL: emulator.apiBase,
        PAYMENT_CLIENT_ID: "sandbox-demo-client-id",
        PAYMENT_CLIENT_SECRET: "sandbox-demo-client-secret",
        SESSION_SECRET: "a-preview-session-secret-of-32-characters",
        ORDER_LINK_SECRET: "a-preview-order-link-secret-of-32-characters",
        PAYMENT_WEBHOOK_SECRET: "whsec-preview-0123456789",
        DATABASE_URL: t.url,
        VERCEL: "1",
        VERCEL_ENV: "preview",
        VERCEL_BRANCH_URL: "medina-git-new-checkout-acme.vercel.app",
        VERCEL_URL: "medina-4f2k9x1ab-acme.vercel.app",
        VERCEL_PROJECT_PRODUCTION_URL: "shop.example.ly",
      },
      "production",
    );
    await placeOrder(t.db, checkout({ siteUrl: env.SITE_URL }));

    const [payment] = await payments();
    expect(payment).toMatchObject({
      return_url: "https://medina-git-new-checkout-acme.vercel.app/checkout/return",
      cancel_url: "https://medina-git-new-checkout-acme.vercel.app/checkout/cancel",
    });
  });
});

describe("the same checkout", () => {
  const fingerprint = (changes: Partial<PlaceOrderInput> = {}) => {
    const input = { cartId: "cart-1", cart: twoSaffron, details: { email: "a@example.ly" }, ...changes };
    return checkoutFingerprint(input, priceCheckout(input.cart.totalMinor, input.zone));
  };
  it("fingerprints the same checkout identically and any change differently", async () => {
    const same = await fingerprint();
    expect(await fingerprint({ cart: structuredClone(twoSaffron) })).toBe(same);
    expect(await fingerprint({ details: { email: "b@example.ly" } })).not.toBe(same);
    expect(await fingerprint({ cart: threeSaffron })).not.toBe(same);
    expect(await fingerprint({ details: { email: "a@example.ly", payment_gateway: "sadad" } })).not.toBe(same);
    expect(await fingerprint({ cartId: "cart-2" })).not.toBe(same);
    const toTripoli = { method: "delivery", zoneId: 1, address: "Gargaresh Street" } as const;
    const delivered = await fingerprint({ details: { email: "a@example.ly", delivery: toTripoli } });
    expect(delivered).not.toBe(same);
    for (const delivery of [
      { ...toTripoli, zoneId: 2 },
      { ...toTripoli, address: "Omar Al-Mukhtar Street" },
      { ...toTripoli, landmark: "the mosque" },
      { ...toTripoli, secondPhone: "0923456789" },
      { method: "pickup" } as const,
    ])
      expect(await fingerprint({ details: { email: "a@example.ly", delivery } })).not.toBe(delivered);
    // The same city at another fee (the merchant changed it meanwhile) is another payment.
    const tripoli = {
      id: 1,
      name: { en: "Tripoli", ar: "طرابلس" },
      enabled: true,
      freeAboveMinor: null,
      cashOnDelivery: true,
    };
    const at = (feeMinor: number) =>
      fingerprint({ details: { email: "a@example.ly", delivery: toTripoli }, zone: { ...tripoli, feeMinor } });
    expect(await at(1_000)).not.toBe(await at(1_500));
  });

  it("resumes only a pending order whose payment page has time left", () => {
    const now = 1_000_000;
    const order = { status: "pending" as const, paymentExpiresAt: new Date(now + ACCESS_TOKEN_LIFETIME_MS) };
    expect(canResume(order, now + 60_000)).toBe(true);
    expect(canResume({ ...order, status: "paid" }, now)).toBe(false);
    expect(canResume({ ...order, paymentExpiresAt: null }, now)).toBe(false);
    expect(canResume(order, now + ACCESS_TOKEN_LIFETIME_MS - 60_000)).toBe(false);
  });
});

describe("delivery", () => {
  /** The seeded zones by English name (drizzle/0014_delivery.sql): Tripoli 10 LYD, Benghazi 35 LYD. */
  const zone = async (nameEn: string) =>
    (await t.db.query.deliveryZones.findFirst({ where: eq(deliveryZones.nameEn, nameEn) }))!;
  /** A delivery's part of the checkout: the details posted and, for a delivery, the zone as the shop offers it now. */
  const details = async (delivery: NonNullable<PlaceOrderInput["details"]["delivery"]>) => ({
    details: { full_name: "Aisha Ben Ali", phone: "0912345678", delivery },
    zone:
      delivery.method === "delivery"
        ? (await listDeliveryZones(t.db, { enabledOnly: true })).find((offered) => offered.id === delivery.zoneId)
        : undefined,
  });
  const order = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;

  it("charges the lines plus the city's fee, and stores where the goods go", async () => {
    const benghazi = await zone("Benghazi");
    const placed = await placeOrder(
      t.db,
      checkout({
        ...(await details({
          method: "delivery",
          zoneId: benghazi.id,
          address: "Al-Fuwayhat, Venice Street",
          landmark: "behind the pharmacy",
          secondPhone: "0923456789",
        })),
      }),
    );
    // Two saffron (37.50) and Benghazi's 35.00, on the wire.
    expect((await payments()).map((payment) => payment.amount)).toEqual(["72.50"]);
    expect(await order(placed.id)).toMatchObject({
      amountMinor: 7_250,
      deliveryFeeMinor: 3_500,
      deliveryMethod: "delivery",
      deliveryZoneId: benghazi.id,
      deliveryCityEn: "Benghazi",
      deliveryCityAr: "بنغازي",
      deliveryAddress: "Al-Fuwayhat, Venice Street",
      deliveryLandmark: "behind the pharmacy",
      secondPhone: "0923456789",
      phone: "0912345678",
    });
  });

  it("delivers free from the zone's free-above total, and charges nothing for pickup", async () => {
    const misrata = await zone("Misrata");
    await t.db.update(deliveryZones).set({ freeAboveMinor: 3_750 }).where(eq(deliveryZones.id, misrata.id));
    await t.db.update(storePickup).set({ enabled: true, addressEn: "Souq Al-Turk 4", addressAr: "سوق الترك 4" });
    try {
      const free = await placeOrder(
        t.db,
        checkout({ ...(await details({ method: "delivery", zoneId: misrata.id, address: "Ras Al-Tubbal" })) }),
      );
      const justBelow = await placeOrder(
        t.db,
        checkout({
          cart: await priceCart(t.db, { lines: [{ productId: saffronId, quantity: 1, seenMinor: 1_875 }] }),
          ...(await details({ method: "delivery", zoneId: misrata.id, address: "Ras Al-Tubbal" })),
        }),
      );
      const pickup = await placeOrder(t.db, checkout({ ...(await details({ method: "pickup" })) }));
      expect((await payments()).map((payment) => payment.amount)).toEqual([
        "37.50",
        `${(1_875 + misrata.feeMinor) / 100}`,
        "37.50",
      ]);
      expect(await order(free.id)).toMatchObject({
        deliveryFeeMinor: 0,
        amountMinor: 3_750,
        deliveryCityEn: "Misrata",
      });
      expect(await order(justBelow.id)).toMatchObject({ deliveryFeeMinor: misrata.feeMinor });
      expect(await order(pickup.id)).toMatchObject({
        deliveryMethod: "pickup",
        deliveryFeeMinor: 0,
        amountMinor: 3_750,
        deliveryZoneId: null,
        deliveryAddress: null,
      });
    } finally {
      await t.db.update(deliveryZones).set({ freeAboveMinor: null }).where(eq(deliveryZones.id, misrata.id));
      await t.db.update(storePickup).set({ enabled: false });
    }
  });

  it("refuses a zone turned off, or pickup not offered, on its field: nothing is stored or asked of the service", async () => {
    // What the checkout's action does before placing the order: the zones and pickup as offered now, then the form.
    const zawiya = await zone("Zawiya");
    await t.db.update(deliveryZones).set({ enabled: false }).where(eq(deliveryZones.id, zawiya.id));
    try {
      const [zones, pickup] = await Promise.all([listDeliveryZones(t.db, { enabledOnly: true }), readPickup(t.db)]);
      const needs = { physical: true, pickup: pickup.enabled, zones: zones.map((offered) => offered.id) };
      const issuesOf = (form: Record<string, string>) =>
        checkoutFormSchema(DEFAULT_GATEWAYS, needs)
          .safeParse({ phone: "0912345678", ...form })
          .error?.issues.map((issue) => [issue.path[0], issue.message]);
      const delivered = { delivery_method: "delivery", delivery_address: "Main Street" };
      expect(issuesOf({ ...delivered, delivery_zone: String(zawiya.id) })).toEqual([
        ["delivery_zone", "zoneUnavailable"],
      ]);
      expect(issuesOf({ ...delivered, delivery_zone: "999999" })).toEqual([["delivery_zone", "zoneUnavailable"]]);
      expect(issuesOf({ delivery_method: "pickup" })).toEqual([["delivery_method", "pickupUnavailable"]]);
      expect(issuesOf({ ...delivered, delivery_zone: String((await zone("Tripoli")).id) })).toBeUndefined();
    } finally {
      await t.db.update(deliveryZones).set({ enabled: true }).where(eq(deliveryZones.id, zawiya.id));
    }
  });

  it("makes another payment for another city, and resumes the first for the same details", async () => {
    const [tripoli, benghazi] = await Promise.all([zone("Tripoli"), zone("Benghazi")]);
    const toTripoli = checkout({
      ...(await details({ method: "delivery", zoneId: tripoli.id, address: "Gargaresh" })),
      shown: shownPrices(twoSaffron, [tripoli, benghazi]),
    });
    const first = await placeOrder(t.db, toTripoli);
    const toBenghazi = await placeOrder(t.db, {
      ...toTripoli,
      ...(await details({ method: "delivery", zoneId: benghazi.id, address: "Gargaresh" })),
    });
    const again = await placeOrder(t.db, toTripoli);
    expect(toBenghazi.id).not.toBe(first.id);
    expect(again).toEqual(first);
    expect((await payments()).map((payment) => payment.amount)).toEqual(["47.50", "72.50"]);
  });
});

describe("the price the form showed", () => {
  const benghazi = async () =>
    (await t.db.query.deliveryZones.findFirst({ where: eq(deliveryZones.nameEn, "Benghazi") }))!;
  const ordersOf = (sessionId: string) => t.db.query.orders.findMany({ where: eq(orders.sessionId, sessionId) });

  it("refuses a price and a delivery fee raised since the form was shown, naming both; nothing is stored or asked of the service; the new total goes through", async () => {
    const oil = await createTestProduct(t.db, { nameEn: "Olive oil", priceMinor: 1_875 });
    const city = await benghazi();
    const cartOf = () => priceCart(t.db, { lines: [{ productId: oil, quantity: 1, seenMinor: 1_875 }] });
    const zoneOf = async () =>
      (await listDeliveryZones(t.db, { enabledOnly: true })).find((offered) => offered.id === city.id)!;
    const delivery = { method: "delivery" as const, zoneId: city.id, address: "Al-Fuwayhat" };
    // The page: 18.75 and Benghazi's 35.00 — then the merchant raises both before the customer submits.
    const shown = shownPrices(await cartOf(), [await zoneOf()]);
    await t.db.update(products).set({ priceMinor: 9_900 }).where(eq(products.id, oil));
    await t.db.update(deliveryZones).set({ feeMinor: 5_000 }).where(eq(deliveryZones.id, city.id));
    try {
      const input = checkout({
        cart: await cartOf(),
        zone: await zoneOf(),
        details: { phone: "0912345678", delivery },
        shown,
      });
      const refused = await placeOrder(t.db, input).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(PriceChangedError);
      expect((refused as PriceChangedError).changes).toEqual([
        { kind: "line", name: { en: "Olive oil", ar: expect.any(String) }, fromMinor: 1_875, toMinor: 9_900 },
        { kind: "delivery", city: { en: "Benghazi", ar: "بنغازي" }, fromMinor: 3_500, toMinor: 5_000 },
      ]);
      expect(await ordersOf(input.sessionId)).toEqual([]);
      expect(await payments()).toEqual([]);

      // The page shows the new prices; submitted again, the customer pays exactly those.
      const placed = await placeOrder(t.db, { ...input, shown: shownPrices(input.cart, [input.zone!]) });
      expect(placed.kind).toBe("pay");
      expect((await payments()).map((payment) => payment.amount)).toEqual(["149.00"]);
    } finally {
      await t.db.update(deliveryZones).set({ feeMinor: city.feeMinor }).where(eq(deliveryZones.id, city.id));
    }
  });

  it("refuses a form that showed other lines (the cart changed in another tab) or not the city chosen", async () => {
    const otherLines = checkout({ shown: shownPrices(threeSaffron, []) });
    await expect(placeOrder(t.db, otherLines)).rejects.toMatchObject({ changes: [{ kind: "outdated" }] });
    const city = (await listDeliveryZones(t.db, { enabledOnly: true })).find((zone) => zone.name.en === "Benghazi")!;
    const otherCity = checkout({
      zone: city,
      details: { phone: "0912345678", delivery: { method: "delivery", zoneId: city.id, address: "Al-Fuwayhat" } },
      shown: shownPrices(twoSaffron, []),
    });
    await expect(placeOrder(t.db, otherCity)).rejects.toMatchObject({ changes: [{ kind: "outdated" }] });
    expect([...(await ordersOf(otherLines.sessionId)), ...(await ordersOf(otherCity.sessionId))]).toEqual([]);
    expect(await payments()).toEqual([]);
  });
});

describe("the checkout's cost in database round trips", () => {
  /**
   * A second "server instance" whose every statement is written down: each is one round trip, and on the critical
   * path of a checkout, in front of the two calls to the service, every one of them is time the customer waits. The
   * requests to the service are written down among them, as `→ <path>`, when they are sent.
   */
  async function counted<T>(run: (db: ReturnType<typeof createDb>) => Promise<T>): Promise<[T, string[]]> {
    const statements: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (url, init) => {
      const href = String(url);
      if (href.startsWith(emulator.apiBase)) statements.push(`→ ${href.slice(emulator.apiBase.length)}`);
      return realFetch(url, init);
    };
    const pool = new Pool({ connectionString: t.url, max: 5 });
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      Object.assign(client, {
        query: (...args: unknown[]) => {
          const text = typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text;
          statements.push(text.replace(/\s+/g, " ").trim().toLowerCase());
          return query(...args);
        },
      });
    });
    try {
      return [await run(createDb(pool)), statements];
    } finally {
      globalThis.fetch = realFetch;
      await pool.end();
    }
  }
  const isStatement = (entry: string) => !entry.startsWith("→ ");

  it("a new checkout of counted stock costs 8: the claim's transaction of 7, and 1 to record its payment", async () => {
    const stocked = await createTestProduct(t.db, { stock: 5 });
    const input = checkout({
      cart: await priceCart(t.db, { lines: [{ productId: stocked, quantity: 2, seenMinor: 0 }] }),
    });
    const [placed, entries] = await counted((db) => placeOrder(db, input));
    expect(placed.kind).toBe("pay");
    expect(entries.filter(isStatement)).toEqual([
      "begin",
      expect.stringMatching(/^select pg_advisory_xact_lock\(.*pg_advisory_xact_lock\(/), // the checkout's, the address's
      // this checkout's order to go to, and the address's budget
      expect.stringMatching(/^select "orders"."id", .* from orders where client_address = .* left join "orders" on/),
      expect.stringMatching(/^select "id", "stock" from "products" .* for update$/), // the products, locked
      // the units open checkouts hold, per product and by this address
      expect.stringMatching(
        /^select "order_lines"."product_id", sum\("order_lines"."quantity"\).* filter \(where "orders"."client_address" = /,
      ),
      expect.stringMatching(/^with written as \(insert into "orders" .*insert into "order_lines" .*order_events/),
      "commit",
      expect.stringMatching(/^with written as \(update "orders" set "status" = \$1.*order_events/), // the record
    ]);
  });

  it("a checkout with a promo code costs 2 more, in the claim: the code's row locked before the products', its uses counted", async () => {
    const stocked = await createTestProduct(t.db, { stock: 5 });
    const input = checkout({
      cart: await priceCart(t.db, { lines: [{ productId: stocked, quantity: 2, seenMinor: 0 }] }),
      promo: await createTestPromoCode(t.db, { maxUses: 5 }),
    });
    const [placed, entries] = await counted((db) => placeOrder(db, input));
    expect(placed.kind).toBe("pay");
    const statements = entries.filter(isStatement);
    expect(statements).toHaveLength(10);
    expect(statements.slice(3, 6)).toEqual([
      expect.stringMatching(/^select "max_uses", "max_uses_per_customer" from "promo_codes" .* for no key update$/),
      expect.stringMatching(/^select count\(\*\)::int, .* from "orders" where \("orders"."promo_code_id" = /),
      expect.stringMatching(/^select "id", "stock" from "products" .* for update$/),
    ]);
  });

  it("asks for the access token once the claim has decided on a new order, while the claim writes it and commits", async () => {
    const [placed, entries] = await counted((db) => placeOrder(db, checkout()));
    expect(placed.kind).toBe("pay");
    const token = entries.indexOf("→ /authentication/token");
    const lastRead = entries.findIndex((entry) => /^select "order_lines"."product_id", sum\(/.test(entry));
    expect(lastRead).toBeGreaterThan(0);
    expect(token).toBeGreaterThan(lastRead);
    expect(token).toBeLessThan(entries.indexOf("commit"));
    expect(entries.filter((entry) => !isStatement(entry))).toEqual(["→ /authentication/token", "→ /payment/create"]);
  });

  it("a new cash order of counted stock costs 17, none of them to the service: the claim's 10, the record's 7 with its 2 e-mails", async () => {
    const stocked = await createTestProduct(t.db, { stock: 5 });
    const input = cashCheckout({
      cart: await priceCart(t.db, { lines: [{ productId: stocked, quantity: 2, seenMinor: 0 }] }),
    });
    const [placed, statements] = await counted((db) => placeOrder(db, input));
    expect(placed.kind).toBe("placed");
    expect(statements).toEqual([
      "begin",
      expect.stringMatching(/^select pg_advisory_xact_lock\(.*pg_advisory_xact_lock\(/), // the checkout's, the address's
      // this checkout's order to go to (the same read as an online checkout's, its payment budget unused)
      expect.stringMatching(/^select "orders"."id", .* from orders where client_address = .* left join "orders" on/),
      expect.stringMatching(/^select pg_advisory_xact_lock\(/), // the phone's
      expect.stringMatching(/^select exists \(select 1 from "cash_blocked_phones".* filter \(where "phone" = /), // blocked? open cash orders
      expect.stringMatching(/^select "id", "stock" from "products" .* for update$/), // the products, locked
      expect.stringMatching(/^select "order_lines"."product_id", sum\("order_lines"."quantity"\)/), // the units held
      expect.stringMatching(/^select .* from "cash_on_delivery"/), // the deadline of the merchant's call
      expect.stringMatching(/^with written as \(insert into "orders" .*insert into "order_lines" .*order_events/),
      "commit",
      "begin",
      expect.stringMatching(/^with written as \(update "orders" set "status" = \$1.*order_events/), // placed
      expect.stringMatching(/^select "email", "locale" from "orders"/), // the customer's e-mail
      expect.stringMatching(/^insert into "email_outbox"/), // the customer's and the merchant's
      expect.stringMatching(/^insert into "order_events"/),
      expect.stringMatching(/^insert into "order_events"/),
      "commit",
    ]);
    expect(statements).toHaveLength(17);
  });

  it("a resubmission of the same checkout costs 4, and asks nothing of the service", async () => {
    const input = checkout();
    await placeOrder(t.db, input);
    const [again, entries] = await counted((db) => placeOrder(db, input));
    expect(again.kind).toBe("pay");
    expect(entries.filter(isStatement)).toHaveLength(4);
    expect(entries.filter((entry) => !isStatement(entry))).toEqual([]);
    expect(await payments()).toHaveLength(1);
  });

  it("a checkout the stock cannot cover asks nothing of the service", async () => {
    const scarce = await createTestProduct(t.db, { stock: 1 });
    const input = checkout({
      cart: await priceCart(t.db, { lines: [{ productId: scarce, quantity: 1, seenMinor: 0 }] }),
    });
    await placeOrder(t.db, input);
    const other = checkout({ cart: input.cart });
    const [refused, entries] = await counted((db) => placeOrder(db, other).catch((error: unknown) => error));
    expect(refused).toBeInstanceOf(OutOfStockError);
    expect(entries.filter((entry) => !isStatement(entry))).toEqual([]);
  });
});

describe("the checkout's way to the service", () => {
  /**
   * Runs a checkout with a `fetch` that writes down, for each request to the service, the functions it was called
   * through, from the stack it was called from: the innermost first, up to placeOrder. The server action calls
   * placeOrder itself (app/(shop)/checkout/actions.ts), so from the action it is one call more. Each of them is a
   * function a reader of the integration has to follow.
   */
  async function traced<T>(run: () => Promise<T>): Promise<[T, { path: string; through: string[] }[]]> {
    const requests: { path: string; through: string[] }[] = [];
    const realFetch = globalThis.fetch;
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100;
    globalThis.fetch = (url, init) => {
      const href = String(url);
      if (href.startsWith(emulator.apiBase)) {
        const frames = (new Error().stack ?? "").split("\n").slice(2); // past the message and this stand-in
        const names = frames.map((frame) => /^\s*at (?:async )?(?:Object\.)?([\w$.<>]+)/.exec(frame)?.[1] ?? frame);
        requests.push({
          path: href.slice(emulator.apiBase.length),
          through: names.slice(0, names.indexOf("placeOrder") + 1),
        });
      }
      return realFetch(url, init);
    };
    try {
      return [await run(), requests];
    } finally {
      globalThis.fetch = realFetch;
      Error.stackTraceLimit = stackTraceLimit;
    }
  }

  it("is 4 calls from the action to fetch for the token and for the create: placeOrder asks for the token itself", async () => {
    const [placed, requests] = await traced(() => placeOrder(t.db, checkout()));
    expect(placed.kind).toBe("pay");
    expect(requests).toEqual([
      { path: "/authentication/token", through: ["call", "requestAccessToken", "placeOrder"] },
      { path: "/payment/create", through: ["call", "createPayment", "placeOrder"] },
    ]);
  });

  it("asks nothing of the service for a way to pay that needs no access token: cash on delivery", async () => {
    const [placed, requests] = await traced(() => placeOrder(t.db, cashCheckout()));
    expect(placed).toEqual({ kind: "placed", id: placed.id });
    expect(requests).toEqual([]);
    expect(await payments()).toEqual([]);
    const order = await t.db.query.orders.findFirst({ where: eq(orders.id, placed.id) });
    expect(order).toMatchObject({ status: "placed", paymentMethod: "cash", paymentToken: null, paymentUrl: null });
  });
});

describe("cash on delivery", () => {
  const order = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
  const available = async (productId: number) =>
    (await productsForCheckout(t.db, [productId])).get(productId)!.available;
  /** Runs `count` placements at once over two instances (two pools); returns what each one did. */
  async function race(count: number, input: (i: number) => PlaceOrderInput) {
    const second = new Pool({ connectionString: t.url, max: 5 });
    try {
      const other = createDb(second);
      return await Promise.allSettled(
        Array.from({ length: count }, (_, i) => placeOrder(i % 2 ? other : t.db, input(i))),
      );
    } finally {
      await second.end();
    }
  }

  it("reads the merchant's settings: cash off in a new shop, the call's deadline 48 hours", async () => {
    expect(await readCashSettings(t.db)).toEqual({
      enabled: false,
      atPickup: false,
      maxTotalMinor: null,
      feeMinor: 0,
      confirmWithinHours: 48,
    });
  });

  it("stores the order placed, with its fee in the total and the deadline of the merchant's call, and queues its two e-mails", async () => {
    await t.db.update(cashOnDelivery).set({ confirmWithinHours: 24 });
    try {
      const before = Date.now();
      const placed = await placeOrder(t.db, cashCheckout({ cashFeeMinor: 500 }));
      const stored = await order(placed.id);
      expect(stored).toMatchObject({ status: "placed", paymentMethod: "cash", cashFeeMinor: 500, amountMinor: 4_250 });
      expect(stored.confirmBy!.getTime()).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
      expect(stored.confirmBy!.getTime()).toBeLessThan(Date.now() + 24 * 3_600_000);
      const events = await t.db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, placed.id))
        .orderBy(orderEvents.id);
      expect(events.map((event) => event.type)).toEqual([
        "created",
        "cash_order_placed",
        "email_queued",
        "email_queued",
      ]);
      const emails = await t.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, placed.id));
      expect(emails.map(({ kind, reason, recipient }) => [kind, reason, recipient]).sort()).toEqual([
        ["merchant_notice", "cash_placed", "owner@medina.example"],
        ["receipt", "cash_placed", "aisha@example.ly"],
      ]);
    } finally {
      await t.db.update(cashOnDelivery).set({ confirmWithinHours: 48 });
    }
  });

  it("stores the customer's choice of text messages: asked with the box ticked, not asked without it", async () => {
    const asked = cashCheckout();
    asked.details = { ...asked.details, sms_updates: true };
    const [withBox, withoutBox] = await Promise.all([placeOrder(t.db, asked), placeOrder(t.db, cashCheckout())]);
    expect([(await order(withBox.id)).smsUpdates, (await order(withoutBox.id)).smsUpdates]).toEqual([true, false]);
  });

  it("sends a resubmission of a placed cash checkout to its order; paying online instead is another checkout", async () => {
    const input = cashCheckout();
    const placed = await placeOrder(t.db, input);
    expect(await placeOrder(t.db, input)).toEqual({ kind: "placed", id: placed.id });
    const online = await placeOrder(t.db, { ...input, paymentMethod: "online", cashFeeMinor: undefined });
    expect(online.kind).toBe("pay");
    expect(online.id).not.toBe(placed.id);
  });

  it("refuses a cash fee changed since the form was shown: nothing is stored", async () => {
    const input = cashCheckout({ cashFeeMinor: 750 });
    const refused = await placeOrder(t.db, { ...input, shown: { ...input.shown, cash: 500 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PriceChangedError);
    expect((refused as PriceChangedError).changes).toEqual([{ kind: "cash_fee", fromMinor: 500, toMinor: 750 }]);
    expect(await t.db.select().from(orders).where(eq(orders.sessionId, input.sessionId))).toEqual([]);
  });

  it("holds the order's units from placement until the merchant's call's deadline", async () => {
    const jars = await createTestProduct(t.db, { stock: 4 });
    const cart = await priceCart(t.db, { lines: [{ productId: jars, quantity: 3, seenMinor: 0 }] });
    const placed = await placeOrder(t.db, cashCheckout({ cart }));
    expect(await available(jars)).toBe(1);
    const short = await placeOrder(t.db, cashCheckout({ cart })).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(OutOfStockError);
    // Not called in time: the hold ends by itself, before the scheduled job expires the order.
    await t.db
      .update(orders)
      .set({ confirmBy: new Date(Date.now() - 1_000) })
      .where(eq(orders.id, placed.id));
    expect(await available(jars)).toBe(4);
  });

  it("lets one phone have CASH_ORDERS_PER_PHONE (2) open cash orders: of 10 racing on two instances, 2 are placed", async () => {
    const phone = "0923334444";
    const results = await race(10, () => {
      const input = cashCheckout();
      return { ...input, details: { ...input.details, phone } };
    });
    const placed = results.filter((result) => result.status === "fulfilled");
    expect(placed).toHaveLength(2);
    for (const result of results) {
      if (result.status === "fulfilled") continue;
      expect(result.reason).toBeInstanceOf(CashRefusedError);
      expect(result.reason).toMatchObject({ why: "phone", max: 2 });
    }
    expect(await t.db.select().from(orders).where(eq(orders.phone, phone))).toHaveLength(2);
    // One confirmed (or expired, or cancelled) frees its place: the phone may place one more.
    const [first] = await t.db.select().from(orders).where(eq(orders.phone, phone));
    await t.db.update(orders).set({ status: "confirmed" }).where(eq(orders.id, first!.id));
    const input = cashCheckout();
    expect((await placeOrder(t.db, { ...input, details: { ...input.details, phone } })).kind).toBe("placed");
  });

  it("lets one client address have CASH_ORDERS_PER_ADDRESS (5) open cash orders: of 10 racing on two instances, 5 are placed", async () => {
    const clientAddress = "203.0.113.77";
    const results = await race(10, () => cashCheckout({ clientAddress }));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    for (const result of results)
      if (result.status === "rejected") expect(result.reason).toMatchObject({ why: "address", max: 5 });
    // Paying online stays open to the address: cash orders are not new payments on the service.
    expect((await placeOrder(t.db, checkout({ clientAddress }))).kind).toBe("pay");
  });

  it("refuses a phone the merchant blocked from cash: nothing is stored; online payment stays open to it", async () => {
    const input = cashCheckout();
    await t.db.insert(cashBlockedPhones).values({ phone: input.details.phone!, blockedBy: "owner@medina.example" });
    const refused = await placeOrder(t.db, input).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CashRefusedError);
    expect(refused).toMatchObject({ why: "blocked" });
    expect(await t.db.select().from(orders).where(eq(orders.sessionId, input.sessionId))).toEqual([]);
    expect((await placeOrder(t.db, { ...input, paymentMethod: "online", cashFeeMinor: undefined })).kind).toBe("pay");
  });
});

/** A fixed checkout's digest (see its test) as the shop computed it before promo codes existed. */
const NO_CODE_FINGERPRINT = "0YKIj7FNjqu_DTV4_8jDeZFgRZeV9dP_9CgRKhOMdq0";

describe("promo codes", () => {
  /** 42.50 LYD of lines, delivered to a city of 15.00 LYD: the issue's checkout. */
  async function eidCheckout(promo: PromoCodeRow, overrides: Partial<PlaceOrderInput> = {}) {
    const [zone] = await t.db
      .insert(deliveryZones)
      .values({ nameEn: `Gharyan ${crypto.randomUUID()}`, nameAr: `غريان ${crypto.randomUUID()}`, feeMinor: 1_500 })
      .returning();
    const product = await createTestProduct(t.db, { priceMinor: 4_250 });
    const cart = await priceCart(t.db, { lines: [{ productId: product, quantity: 1, seenMinor: 4_250 }] });
    const offered = (await listDeliveryZones(t.db, { enabledOnly: true })).find((offer) => offer.id === zone!.id)!;
    return checkout({
      cart,
      zone: offered,
      details: {
        full_name: "Aisha Ben Ali",
        phone: "0912345678",
        delivery: { method: "delivery", zoneId: zone!.id, address: "Gharyan, Main Street" },
      },
      promo,
      ...overrides,
    });
  }
  const order = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;

  it("sends the service the discounted amount: 10 % off 42.50 with 15.00 delivery is 53.25; a free-delivery code sends the lines alone", async () => {
    const eid10 = await createTestPromoCode(t.db, { code: "EID10", percent: 10 });
    const freeShip = await createTestPromoCode(t.db, { code: "FREESHIP", kind: "free_delivery", percent: null });
    const discounted = await placeOrder(t.db, await eidCheckout(eid10));
    const freeDelivery = await placeOrder(t.db, await eidCheckout(freeShip));
    expect((await payments()).map((payment) => payment.amount)).toEqual(["53.25", "42.50"]);
    expect(await order(discounted.id)).toMatchObject({
      amountMinor: 5_325,
      deliveryFeeMinor: 1_500,
      promoCodeId: eid10.id,
      promoCode: "EID10",
      discountMinor: 425,
    });
    // A free-delivery code keeps the fee on the order, and takes it off the amount.
    expect(await order(freeDelivery.id)).toMatchObject({
      amountMinor: 4_250,
      deliveryFeeMinor: 1_500,
      promoCode: "FREESHIP",
      discountMinor: 1_500,
    });
    const [created] = await t.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, discounted.id), eq(orderEvents.type, "created")));
    expect(created!.data).toEqual({
      amountMinor: 5_325,
      deliveryFeeMinor: 1_500,
      promoCode: "EID10",
      discountMinor: 425,
    });
  });

  it("works with cash on delivery: the cash fee, then the discount; placed, the order holds its use; confirmed, it is used", async () => {
    const once = await createTestPromoCode(t.db, { kind: "amount", percent: null, amountMinor: 500, maxUses: 1 });
    const placed = await placeOrder(t.db, cashCheckout({ cashFeeMinor: 300, promo: once }));
    expect(placed.kind).toBe("placed");
    // Two saffron (37.50), 3.00 for cash, 5.00 off.
    expect(await order(placed.id)).toMatchObject({ amountMinor: 3_550, cashFeeMinor: 300, discountMinor: 500 });
    expect((await promoCodeUses(t.db, [once.id])).get(once.id)).toEqual({ used: 0, held: 1 });
    await expect(placeOrder(t.db, cashCheckout({ promo: once }))).rejects.toMatchObject({ why: "used_up" });
    expect(await confirmCashOrder(t.db, placed.id, { by: "owner@medina.example" })).toEqual({ result: "done" });
    expect((await promoCodeUses(t.db, [once.id])).get(once.id)).toEqual({ used: 1, held: 0 });
    expect(await payments()).toEqual([]);
  });

  it("makes another payment for another code, or none; the same code resumes the same payment", async () => {
    const [ten, fifteen] = await Promise.all([
      createTestPromoCode(t.db, { percent: 10 }),
      createTestPromoCode(t.db, { percent: 15 }),
    ]);
    const input = await eidCheckout(ten);
    const first = await placeOrder(t.db, input);
    expect(await placeOrder(t.db, input)).toEqual(first);
    const other = await placeOrder(t.db, { ...input, promo: fifteen });
    const none = await placeOrder(t.db, { ...input, promo: undefined });
    expect(new Set([first.id, other.id, none.id]).size).toBe(3);
    expect((await payments()).map((payment) => payment.amount)).toEqual(["53.25", "51.13", "57.50"]);
    // A checkout without a code has the digest it had before codes existed (a resubmission across the upgrade).
    const cart = { totalMinor: 3_750, lines: [{ product: { id: 7, priceMinor: 1_875 }, quantity: 2 }] } as PricedCart;
    const price = { linesMinor: 3_750, deliveryFeeMinor: 0, totalMinor: 3_750 };
    expect(await checkoutFingerprint({ cartId: "cart-1", cart, details: { email: "a@example.ly" } }, price)).toBe(
      NO_CODE_FINGERPRINT,
    );
  });

  it("gives a single-use code back the moment its payment is cancelled or fails, and when its page dies; its own checkout and its payment are never refused", async () => {
    const once = await createTestPromoCode(t.db, { maxUses: 1 });
    const first = await eidCheckout(once);
    const holding = await placeOrder(t.db, first);
    // Held: another customer is told it is used up, and nothing is asked of the service; the same checkout resumes.
    const refused = await placeOrder(t.db, await eidCheckout(once)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PromoCodeError);
    expect(refused).toMatchObject({ why: "used_up" });
    expect(await placeOrder(t.db, first)).toEqual(holding);
    expect(await payments()).toHaveLength(1);

    // Cancelled on the payment page: given back at once.
    expect(await settle(t.db, holding.id, { kind: "customer_returned", type: "cancel" })).toMatchObject({
      to: "cancelled",
    });
    const second = await placeOrder(t.db, await eidCheckout(once));

    // Its page dies unpaid: given back, without waiting for the scheduled job.
    await t.db
      .update(orders)
      .set({ paymentExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(orders.id, second.id));
    await emulator.control("/faults", { route: "create", kind: "status", status: 400 });
    await expect(placeOrder(t.db, await eidCheckout(once))).rejects.toBeInstanceOf(PaymentError);
    // The service refused that payment: failed, and given back at once.
    const third = await placeOrder(t.db, await eidCheckout(once));

    // The dead page's payment is confirmed after all: money wins, paid with its discount past the code's limit.
    const confirm = async (id: string) =>
      settle(t.db, id, { kind: "payment_confirmed", paymentToken: (await order(id)).paymentToken!, delivery: {} });
    expect(await confirm(third.id)).toMatchObject({ to: "paid" });
    expect(await confirm(second.id)).toMatchObject({ to: "paid" });
    expect(await order(second.id)).toMatchObject({ status: "paid", discountMinor: 425, amountMinor: 5_325 });
    expect((await promoCodeUses(t.db, [once.id])).get(once.id)).toEqual({ used: 2, held: 0 });
  });
});
