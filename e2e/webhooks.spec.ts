import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { browse, payAtEmulator, returnToShop, startPayment, textsOf } from "../testing/no-js-shop";
import {
  addToCart,
  createAdmin,
  database,
  emulator,
  expect,
  fillCheckout,
  paymentPage,
  shop,
  signInAsAdmin,
  stack,
  test,
} from "./support";

/**
 * The payment service confirms payments with signed webhooks, sent by the emulator to the running shop as real
 * HTTP deliveries. Only a verified one makes an order paid; the customer's redirect only reports it.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

const ADMIN = { email: "webhooks-admin@medina.example", password: "webhooks-admin-password-1" };
const onOrderPage = /\/orders\/ord_[0-9a-z]+\?outcome=/;
const heading = (status: string) => shop(`order.status.${status}.title`, "en");
const paymentTokenOf = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;

/** Cart → checkout → the emulator's gateway page for Sadad; returns the payment token. */
async function toGatewayPage(page: Page): Promise<string> {
  await addToCart(page, "saffron", 2, "en");
  await page.goto("/checkout");
  await fillCheckout(page, { gateway: "Sadad" }, "en");
  await page.getByRole("button", { name: shop("checkout.submit", "en") }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  const token = paymentTokenOf(page);
  await page.getByRole("button", { name: paymentPage("en").continue }).click();
  return token;
}

async function pay(page: Page) {
  await page.getByRole("button", { name: paymentPage("en").pay, exact: true }).click();
  await expect(page).toHaveURL(onOrderPage);
}

/**
 * The same purchase as a browser without JavaScript makes it (testing/no-js-shop.ts), up to the payment page.
 * @returns the payment token, its payment URL and the session cookie.
 */
const startPaying = () =>
  startPayment(stack().shopUrl, stack().emulatorUrl, {
    slug: "saffron",
    quantity: 2,
    details: { payment_gateway: "sadad" },
  });

/** Pays on the payment page and comes back to the shop. @returns the order page's headings, as the customer sees them. */
async function payByForm({ paymentUrl, cookie }: { paymentUrl: string; cookie: string }): Promise<string[]> {
  const back = await returnToShop(await payAtEmulator(paymentUrl, "sadad"), cookie);
  return textsOf((await browse(new URL(back.orderPath, stack().shopUrl).href, back.cookie)).html, "h1, h2");
}

/**
 * The order's id, status, flags and events, straight from the database. Its e-mails' events are left out: they are
 * written after the response, whenever SMTP answers (e2e/email.spec.ts is about them).
 */
async function stored(token: string) {
  return database(async (pool) => {
    const { rows } = await pool.query("select id, status, flags from orders where payment_token = $1", [token]);
    const order = rows[0] as { id: string; status: string; flags: string[] };
    const events = await pool.query(
      "select type, data from order_events where order_id = $1 and type not like 'email\\_%' order by id",
      [order.id],
    );
    return { ...order, events: events.rows as { type: string; data: Record<string, unknown> }[] };
  });
}

test(
  "Pay → the service's webhook confirms the order, and the database has the delivery and its events",
  { tag: "@pooler" },
  async () => {
    // As a browser without JavaScript: the order page as the server renders it is what the customer comes back to.
    const { token, ...started } = await startPaying();
    const back = await returnToShop(await payAtEmulator(started.paymentUrl, "sadad"), started.cookie);
    expect(back.orderPath).toMatch(onOrderPage);
    const { html } = await browse(new URL(back.orderPath, stack().shopUrl).href, back.cookie);
    expect(textsOf(html, "h1, h2")).toContain(heading("paid"));
    expect(textsOf(html, '[role="status"]').some((text) => text.includes(shop("order.status.paid.text", "en")))).toBe(
      true,
    );

    const order = await stored(token);
    expect(order.status).toBe("paid");
    expect(order.events.map((e) => e.type)).toEqual([
      "created",
      "payment_created",
      "webhook_received",
      "customer_returned",
    ]);
    expect(order.events[2]!.data).toMatchObject({
      verified: true,
      from: "pending",
      to: "paid",
      amount: 47.5,
      currency: "LYD",
      gateway: "sadad",
    });
  },
);

test('a webhook that arrives after the customer: "confirming", then confirmed without a click', async ({
  page,
  request,
}) => {
  await emulator.fault(request, { route: "webhook", kind: "delay", delayMs: 4_000 });
  const token = await toGatewayPage(page);
  await pay(page);
  await expect(page.getByRole("heading", { name: heading("awaiting_confirmation") })).toBeVisible();
  expect(await page.getByTestId("cart-count").textContent()).toBe("0");
  // The page refreshes itself; the live region now announces the confirmation.
  await expect(page.getByRole("status").getByRole("heading", { name: heading("paid") })).toBeVisible({
    timeout: 15_000,
  });
  expect((await stored(token)).status).toBe("paid");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the confirming page reloads itself until the webhook has confirmed the payment", async ({ page, request }) => {
    await emulator.fault(request, { route: "webhook", kind: "delay", delayMs: 3_000 });
    await addToCart(page, "saffron", 1, "en");
    await page.goto("/checkout");
    await fillCheckout(page, { gateway: "Sadad" }, "en");
    await page.getByRole("button", { name: shop("checkout.submit", "en") }).click();
    await page.getByRole("button", { name: paymentPage("en").continue }).click();
    await pay(page);
    await expect(page.getByRole("heading", { name: heading("awaiting_confirmation") })).toBeVisible();
    await expect(page.getByRole("heading", { name: heading("paid") })).toBeVisible({ timeout: 15_000 });
  });
});

test(
  'a webhook that never comes: the order stays "confirming" and is never expired; after the grace period the merchant is asked, marks it paid, and the late webhook changes nothing',
  { tag: "@pooler" },
  async ({ browser, request }) => {
    await emulator.fault(request, { route: "webhook", kind: "drop" });
    // The customer, as a browser without JavaScript: the merchant's page is where this test needs one.
    const { token, ...started } = await startPaying();
    const back = await returnToShop(await payAtEmulator(started.paymentUrl, "sadad"), started.cookie);
    expect(back.orderPath).toMatch(onOrderPage);
    const orderPage = async () =>
      textsOf((await browse(new URL(back.orderPath, stack().shopUrl).href, back.cookie)).html, "h1, h2");
    expect(await orderPage()).toContain(heading("awaiting_confirmation"));
    expect((await stored(token)).status).toBe("awaiting_confirmation");

    // Eleven minutes later the payment page has died, but the customer said they paid: the expiry job leaves it.
    await database((pool) =>
      pool.query("update orders set payment_expires_at = now() - interval '1 minute' where payment_token = $1", [
        token,
      ]),
    );
    const cron = `${stack().env.SITE_URL}/api/cron/expire-orders`;
    expect((await request.get(cron)).status()).toBe(401);
    expect((await request.get(cron, { headers: { Authorization: "Bearer not-the-secret" } })).status()).toBe(401);
    const run = () => request.get(cron, { headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` } });
    expect((await run()).status()).toBe(200);
    expect(await orderPage()).toContain(heading("awaiting_confirmation"));

    // A day later still no confirmation: the order is flagged for the merchant.
    await database((pool) =>
      pool.query("update orders set customer_returned_at = now() - interval '25 hours' where payment_token = $1", [
        token,
      ]),
    );
    expect((await run()).status()).toBe(200);
    const { id } = await stored(token);
    expect(await stored(token)).toMatchObject({ status: "awaiting_confirmation", flags: ["unconfirmed_report"] });

    // The merchant checks the dashboard and marks it paid with the transaction reference there.
    await createAdmin(ADMIN.email, ADMIN.password);
    const admin = await (await browser.newContext({ locale: "en-US" })).newPage();
    await signInAsAdmin(admin, ADMIN.email, ADMIN.password, "en");
    await admin.goto(`/admin/orders/${id}`);
    await expect(admin.getByTestId("order-flags")).toContainText(shop("admin.flags.unconfirmed_report", "en"));
    await admin.getByRole("button", { name: shop("admin.order.markPaid", "en") }).click();
    await expect(admin.getByText(shop("admin.order.results.reference_missing", "en"))).toHaveCount(0); // the browser asks first
    await admin.getByLabel(shop("admin.order.reference", "en")).fill("TXN-DASHBOARD-4471");
    await admin.getByLabel(shop("admin.order.note", "en")).fill("Paid per the dashboard; webhook lost");
    await admin.getByRole("button", { name: shop("admin.order.markPaid", "en") }).click();
    await expect(admin.getByRole("status")).toHaveText(shop("admin.order.results.marked_paid", "en"));
    await expect(admin.getByTestId("order-timeline")).toContainText(
      `Marked paid by ${ADMIN.email} (reference TXN-DASHBOARD-4471)`,
    );
    expect(await stored(token)).toMatchObject({ status: "paid", flags: ["unconfirmed_report", "paid_manually"] });

    // The service's delivery arrives after all: a repeat, nothing moves.
    const [delivery] = await emulator.webhooks(request, token);
    const replay = await request.post(`${stack().emulatorUrl}/__emulator/webhooks/${delivery!.id}/replay`);
    expect(replay.ok()).toBe(true);
    expect((await stored(token)).events.at(-1)).toMatchObject({
      type: "webhook_received",
      data: { from: "paid", to: "paid" },
    });
    expect(await orderPage()).toContain(heading("paid"));
  },
);

test("a forged webhook (bad signature) is refused with 401, changes nothing and writes nothing", async ({
  request,
}) => {
  await emulator.fault(request, { route: "webhook", kind: "bad_signature" });
  const started = await startPaying();
  const token = started.token;
  expect(await payByForm(started)).toContain(heading("awaiting_confirmation"));
  const [delivery] = await emulator.webhooks(request, token);
  expect(delivery!.attempts[0]!.status).toBe(401);

  // And one made by hand, with a signature from another secret.
  const body = JSON.stringify({ event: "payment.success", token, amount: 47.5, currency: "LYD" });
  const forged = await request.post(`${stack().env.SITE_URL}/api/payments/webhook`, {
    data: body,
    headers: {
      "Content-Type": "application/json",
      "X-MyPay-Signature": createHmac("sha256", "a-guessed-secret").update(body).digest("hex"),
    },
  });
  expect(forged.status()).toBe(401);
  const order = await stored(token);
  expect(order.status).toBe("awaiting_confirmation");
  // A delivery that proves nothing costs no database write (lib/orders/webhook.ts): the order's history stays clean.
  expect(order.events.filter((e) => e.type === "webhook_received")).toEqual([]);
});

test("a duplicated delivery moves the order once", { tag: "@pooler" }, async ({ request }) => {
  await emulator.fault(request, { route: "webhook", kind: "duplicate" });
  const { token, ...started } = await startPaying();
  await payByForm(started);
  await expect.poll(async () => (await stored(token)).status).toBe("paid");
  const deliveries = (await stored(token)).events.filter((e) => e.type === "webhook_received");
  expect(deliveries.map((e) => `${e.data.from}→${e.data.to}`)).toEqual(["pending→paid", "paid→paid"]);
});

test("cancelled, then a verified payment arrives anyway: the order is paid and flagged for the merchant", async () => {
  const started = await startPaying();
  const cancelled = await browse(
    `${stack().shopUrl}/checkout/cancel?type=cancel&token=${started.token}`,
    started.cookie,
  );
  expect(textsOf(cancelled.html, "h1, h2")).toContain(heading("cancelled"));

  // The customer goes back to the payment page, which still works, and pays.
  await payByForm({ paymentUrl: started.paymentUrl, cookie: cancelled.cookie });
  await expect.poll(() => stored(started.token)).toMatchObject({ status: "paid", flags: ["paid_after_cancel"] });
});

test("a webhook with another amount never marks the order paid, and flags it", async ({ request }) => {
  await emulator.fault(request, { route: "webhook", kind: "amount", amount: 1 });
  const started = await startPaying();
  expect(await payByForm(started)).toContain(heading("awaiting_confirmation"));
  await expect
    .poll(() => stored(started.token))
    .toMatchObject({ status: "awaiting_confirmation", flags: ["amount_mismatch"] });
});
