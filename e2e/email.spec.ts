import type { APIRequestContext } from "@playwright/test";
import { formatMoney } from "../lib/money";
import {
  addToCart,
  adminCookie,
  browse,
  formAsShown,
  getPage,
  isPaymentPage,
  loadCheckoutForm,
  payAtEmulator,
  postForm,
  returnToShop,
  submitCheckout,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import { baseShopEnv } from "./stacks";
import {
  type CaughtEmail,
  createAdmin,
  database,
  emulator,
  expect,
  type Lang,
  mailbox,
  shop,
  stack,
  test,
} from "./support";

/**
 * The shop's e-mails, end to end: the production build sends them over SMTP to a real mail catcher (MailDev, the
 * shop's SMTP_URL), which the tests read through its REST API. The merchant's language is the default, English.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

const MERCHANT = baseShopEnv.MERCHANT_EMAIL;
const ADMIN = { email: "mail-admin@medina.example", password: "mail-admin-password-1" };
const runScheduledJob = (request: APIRequestContext) =>
  request.get(`${stack().env.SITE_URL}/api/cron/expire-orders`, {
    headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` },
  });
/** The order's e-mails in the outbox by status, e.g. `{ sent: 2 }`: what the shop queued and what it sent. */
const outbox = (orderId: string) =>
  database(async (pool) => {
    const { rows } = await pool.query<{ status: string; count: number }>(
      "select status, count(*)::int as count from email_outbox where order_id = $1 group by status",
      [orderId],
    );
    return Object.fromEntries(rows.map((row) => [row.status, row.count]));
  });

const fill = (template: string, values: Record<string, string>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replace(`{${name}}`, value), template);
const to = (email: CaughtEmail) => email.to.map((address) => address.address).join(",");

/** Milliseconds from the webhook's event to the catcher's acceptance of an e-mail (its `email_sent` event). */
async function webhookToCatcherMs(orderId: string): Promise<number[]> {
  return database(async (pool) => {
    const { rows } = await pool.query<{ type: string; at: Date }>(
      "select type, at from order_events where order_id = $1 and type in ('webhook_received', 'email_sent') order by id",
      [orderId],
    );
    const webhook = rows.find((row) => row.type === "webhook_received")!.at.getTime();
    return rows.filter((row) => row.type === "email_sent").map((row) => row.at.getTime() - webhook);
  });
}

for (const lang of ["en", "ar"] as const) {
  test(`a paid checkout in ${lang === "en" ? "English" : "Arabic"}: one receipt to the customer in ${lang}, one notice to the merchant`, async ({
    request,
  }) => {
    const customer = `customer-${lang}-${Date.now()}@example.ly`;
    const { orderId, cookie } = await payAndSeePaid(await startPaying(customer, lang), lang);

    const emails = await mailbox.waitFor(request, orderId, 2);
    const receipt = emails.find((email) => to(email) === customer)!;
    const notice = emails.find((email) => to(email) === MERCHANT)!;
    expect(receipt, "one receipt, to the customer").toBeDefined();
    expect(notice, "one notice, to the merchant").toBeDefined();

    const total = formatMoney(11375, lang);
    expect(receipt.subject).toBe(fill(shop("email.receipt.subject", lang), { id: orderId, total }));
    expect(receipt.html).toMatch(new RegExp(`<html[^>]* dir="${lang === "ar" ? "rtl" : "ltr"}" lang="${lang}"`));
    expect(receipt.text).toContain(shop("email.receipt.heading", lang));
    expect(receipt.text).toContain(orderId);
    expect(receipt.text).toContain(total);
    expect(receipt.text).toContain(formatMoney(8500, lang)); // the olive oil line: 2 × 42.50
    expect(receipt.text).toContain(shop("gateways.sadad", lang));
    expect(receipt.text).toContain(`${stack().env.SITE_URL}/orders/${orderId}`);
    expect(receipt.from[0]).toMatchObject({ address: "shop@medina.example", name: "Medina Market" });

    // The merchant's notice is in the merchant's language (MERCHANT_LOCALE, English here), whatever the customer's.
    expect(notice.subject).toBe(
      fill(shop("email.notice.subjectPaid", "en"), { id: orderId, total: formatMoney(11375, "en") }),
    );
    expect(notice.text).toContain(customer);
    expect(notice.text).toContain(`${stack().env.SITE_URL}/admin/orders/${orderId}`);

    // The link in the receipt opens the order in the browser that placed it.
    const opened = await browse(`${stack().env.SITE_URL}/orders/${orderId}`, cookie, lang);
    expect(textsOf(opened.html, "h1, h2")).toContain(shop("order.status.paid.title", lang));

    // Sent once: the scheduled job finds nothing left to send, and nothing else was queued or arrives.
    expect((await (await runScheduledJob(request)).json()).emails).toMatchObject({ sent: 0 });
    await expect.poll(() => outbox(orderId)).toEqual({ sent: 2 });
    expect(await mailbox.about(request, orderId)).toHaveLength(2);

    const latency = await webhookToCatcherMs(orderId);
    test.info().annotations.push({ type: "webhook → catcher (ms)", description: latency.join(", ") });
    console.log(`[email] ${lang}: webhook → e-mail in the catcher: ${latency.join(" ms, ")} ms`);
  });
}

/**
 * A browser without JavaScript (testing/no-js-shop.ts) in `lang` fills the cart (2 × olive oil at 42.50, 1 × saffron
 * at 18.75: 103.75 LYD), delivered to Tripoli (10.00 LYD: 113.75 LYD in all), and checks out with Sadad up to the
 * payment page. What the shop's e-mails say does not depend on JavaScript; e2e/checkout.spec.ts drives the same
 * checkout with it. @returns the session cookie, the payment URL and its token.
 */
async function startPaying(customer: string, lang: Lang = "en") {
  const base = stack().shopUrl;
  const cart = await addToCart(base, {
    slug: "saffron",
    cookie: await addToCart(base, { slug: "olive-oil", quantity: 2, lang }),
    lang,
  });
  const { hidden, delivery } = await loadCheckoutForm(base, cart, lang);
  const details = { ...delivery, full_name: "Aisha Ben Ali", email: customer, payment_gateway: "sadad" };
  const started = await submitCheckout(base, cart, hidden, details, { lang });
  expect(isPaymentPage(started.location, stack().emulatorUrl)).toBe(true);
  return { cookie: started.cookie, paymentUrl: started.location!, token: started.location!.split("/").pop()! };
}

/**
 * Pays on the payment page and comes back to the shop.
 * @returns the order's id, the order page the customer is sent to, and the session cookie.
 */
async function payByForm(
  { paymentUrl, cookie }: { paymentUrl: string; cookie: string },
  lang: Lang = "en",
): Promise<{ orderId: string; orderUrl: string; cookie: string }> {
  const back = await returnToShop(await payAtEmulator(paymentUrl, "sadad"), cookie, lang);
  const orderUrl = new URL(back.orderPath, stack().shopUrl);
  return { orderId: orderUrl.pathname.split("/").pop()!, orderUrl: orderUrl.href, cookie: back.cookie };
}

/** Pays as {@link payByForm} does, and the order page the customer comes back to says "paid". */
async function payAndSeePaid(started: { paymentUrl: string; cookie: string }, lang: Lang = "en") {
  const paid = await payByForm(started, lang);
  const { html } = await browse(paid.orderUrl, paid.cookie, lang);
  expect(textsOf(html, "h1, h2")).toContain(shop("order.status.paid.title", lang));
  return paid;
}

/** Opens the cancel URL the payment page sends a cancelling customer to. @returns the order's id. */
async function cancelByForm({ token, cookie }: { token: string; cookie: string }): Promise<string> {
  const cancelled = await browse(`${stack().shopUrl}/checkout/cancel?type=cancel&token=${token}`, cookie);
  expect(textsOf(cancelled.html, "h1, h2")).toContain(shop("order.status.cancelled.title", "en"));
  return new URL(cancelled.url).pathname.split("/").pop()!;
}

test("a cancelled checkout sends no e-mail", async ({ request }) => {
  const orderId = await cancelByForm(await startPaying(`cancel-${Date.now()}@example.ly`));
  expect((await runScheduledJob(request)).ok()).toBe(true);
  // Nothing was queued, so nothing can arrive later.
  expect(await outbox(orderId)).toEqual({});
  expect(await mailbox.about(request, orderId)).toEqual([]);
});

test("a replayed webhook sends nothing new", async ({ request }) => {
  const started = await startPaying(`replay-${Date.now()}@example.ly`);
  const { orderId } = await payByForm(started);
  await mailbox.waitFor(request, orderId, 2);

  const [delivery] = await emulator.webhooks(request, started.token);
  const replay = await request.post(`${stack().emulatorUrl}/__emulator/webhooks/${delivery!.id}/replay`);
  expect((await replay.json()).attempt).toMatchObject({ status: 200 });
  expect((await runScheduledJob(request)).ok()).toBe(true);
  // The replay queued nothing (its move changed nothing), so the two e-mails sent are all there will be.
  await expect.poll(() => outbox(orderId)).toEqual({ sent: 2 });
  expect(await mailbox.about(request, orderId)).toHaveLength(2);
});

test("money after a cancel: the merchant's notice spells out the flag", async ({ request }) => {
  const started = await startPaying(`flagged-${Date.now()}@example.ly`);
  const orderId = await cancelByForm(started);
  await payByForm(started); // the payment page still works: the customer pays anyway

  const notice = (await mailbox.waitFor(request, orderId, 2)).find((email) => to(email) === MERCHANT)!;
  expect(notice.subject).toBe(
    fill(shop("email.notice.subjectFlagged", "en"), { id: orderId, total: formatMoney(11375, "en") }),
  );
  expect(notice.text).toContain(shop("email.flags.paid_after_cancel", "en"));
});

test("the back office shows each e-mail in the order's history, and sends the receipt and the merchant's notice again", async ({
  request,
}) => {
  const customer = `resend-${Date.now()}@example.ly`;
  const { orderId } = await payAndSeePaid(await startPaying(customer));
  await mailbox.waitFor(request, orderId, 2);

  // The back office's forms work without JavaScript: the merchant's browser is driven as one without it.
  await createAdmin(ADMIN.email, ADMIN.password);
  const base = stack().shopUrl;
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const orderUrl = `${base}/admin/orders/${orderId}`;
  let page = await getPage(orderUrl, admin);
  const timeline = () => (textOf(page, '[data-testid="order-timeline"]') ?? "").replace(/\s+/g, " ");
  expect(timeline()).toContain(`E-mail queued: receipt to ${customer}`);
  expect(timeline()).toContain(`E-mail sent: receipt to ${customer}`);
  expect(timeline()).toContain(`E-mail sent: merchant's notice to ${MERCHANT}`);

  /** Presses the button `key` names for `email`. @returns where the order's page went. */
  const resend = async (key: string, email: string) => {
    const button = { button: fill(shop(`admin.order.${key}`, "en"), { email }) };
    const answer = await postForm(orderUrl, formAsShown(page, button), admin);
    expect(answer.status).toBe(303);
    page = await getPage(new URL(answer.location!, base).href, admin);
    return answer.location!;
  };
  expect(await resend("resendReceipt", customer)).toMatch(/result=receipt_queued$/);
  expect(textOf(page, "[role=status]")).toBe(shop("admin.order.results.receipt_queued", "en"));
  expect(timeline()).toContain(`Receipt requested again by ${ADMIN.email}`);
  expect(await resend("resendNotice", MERCHANT)).toMatch(/result=notice_queued$/);
  expect(textOf(page, "[role=status]")).toBe(shop("admin.order.results.notice_queued", "en"));
  expect(timeline()).toContain(`Merchant's notice requested again by ${ADMIN.email}`);
  const emails = await mailbox.waitFor(request, orderId, 4);
  const receipts = emails.filter((email) => to(email) === customer);
  expect(receipts).toHaveLength(2);
  expect(receipts.some((receipt) => receipt.text.includes(shop("email.receipt.resent", "en")))).toBe(true);
  expect(emails.filter((email) => to(email) === MERCHANT)).toHaveLength(2);
  page = await getPage(orderUrl, admin);
  expect(timeline().split(`E-mail sent: receipt to ${customer}`)).toHaveLength(3);
  expect(timeline().split(`E-mail sent: merchant's notice to ${MERCHANT}`)).toHaveLength(3);
});
