import type { APIRequestContext } from "@playwright/test";
import type { CaughtSms } from "../scripts/sms-centre";
import {
  addToCart,
  adminCookie,
  browse,
  formAsShown,
  getPage,
  isPaymentPage,
  loadCheckoutForm,
  parseHtml,
  payAtEmulator,
  placeCashOrder,
  postForm,
  returnToShop,
  select,
  submitCheckout,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import {
  addToCart as addToCartInBrowser,
  createAdmin,
  database,
  emulator,
  expect,
  type Lang,
  shop,
  stack,
  test,
} from "./support";

/**
 * The shop's text messages, end to end (docs/sms.md): the production build sends them over SMPP to the stack's SMS
 * centre (scripts/sms-centre.ts), which the tests read through `GET /api/sms`. Customers give a phone and no e-mail,
 * as most Libyan shoppers do, and buy as a browser without JavaScript does (testing/no-js-shop.ts). What the outbox
 * guarantees under races, two instances and a centre that is down is proven in lib/sms/delivery.test.ts.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

const ADMIN = { email: "sms-admin@medina.example", password: "sms-admin-password-1" };
const runScheduledJob = (request: APIRequestContext) =>
  request.get(`${stack().env.SITE_URL}/api/cron/expire-orders`, {
    headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` },
  });

/** A phone of its own for each test (cash orders are limited per phone), `091` and seven digits. */
const freshPhone = () => `091${String(Date.now() % 10_000_000).padStart(7, "0")}`;

/** The SMS centre's messages about one order (its number is in every text the shop writes). */
async function textsAbout(request: APIRequestContext, orderId: string): Promise<CaughtSms[]> {
  const response = await request.get(`${stack().smsInboxUrl}/api/sms`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as CaughtSms[]).filter((sms) => sms.text.includes(orderId));
}

/** Waits until `count` messages about the order have arrived, and returns them. */
async function waitForTexts(request: APIRequestContext, orderId: string, count: number): Promise<CaughtSms[]> {
  let texts: CaughtSms[] = [];
  await expect
    .poll(async () => (texts = await textsAbout(request, orderId)).length, { timeout: 15_000, intervals: [100] })
    .toBe(count);
  return texts;
}

/**
 * One receipt: to the phone, in the order's language (Arabic is UCS-2, English GSM-7), with the order's number and its
 * signed link, which opens the order in a fresh browser (no cookie).
 */
async function expectReceipt(sms: CaughtSms, orderId: string, phone: string, lang: Lang, heading: string) {
  expect(sms.to).toBe(`218${phone.slice(1)}`);
  expect(sms.encoding).toBe(lang === "ar" ? "UCS-2" : "GSM-7");
  expect(sms.text).toContain(lang === "ar" ? "سوق المدينة" : "Medina Market");
  const link = /https?:\/\/\S+/.exec(sms.text)?.[0];
  expect(link).toContain(`${stack().env.SITE_URL}/orders/${orderId}?`);
  const opened = await browse(link!, "", lang);
  expect(opened.status).toBe(200);
  expect(textsOf(opened.html, "h1, h2")).toContain(shop(heading, lang));
}

/** Whether the checkout page's "Text me about this order" box is ticked. */
const boxTicked = (html: string) =>
  "checked" in (select('input[type="checkbox"][name="sms_updates"]', parseHtml(html))[0]?.attribs ?? {});

test("the checkout's box: ticked at first, kept as the customer left it after a refused post, without JavaScript", async () => {
  const base = stack().shopUrl;
  const cart = await addToCart(base, { slug: "olive-oil" });
  const page = await getPage(`${base}/checkout`, cart);
  expect(textOf(page, 'label:has(input[name="sms_updates"])')?.trim()).toBe(shop("checkout.smsUpdates", "en"));
  expect(boxTicked(page)).toBe(true);
  const { hidden } = await loadCheckoutForm(base, cart);
  // Refused (no address): the form comes back with the box as posted, unticked or ticked.
  for (const sms_updates of ["", "yes"]) {
    const refused = await submitCheckout(base, cart, hidden, { phone: "0912345678", sms_updates });
    expect(refused.status).toBe(200);
    expect(boxTicked(refused.html)).toBe(sms_updates === "yes");
  }
});

test("with JavaScript the box follows the e-mail field, ticked while it is empty, until the customer touches it", async ({
  page,
}) => {
  await addToCartInBrowser(page, "olive-oil", 1, "en");
  await page.goto("/checkout");
  const box = page.getByRole("checkbox", { name: shop("checkout.smsUpdates", "en") });
  const email = page.getByLabel(shop("checkout.email", "en"));
  await expect(box).toBeChecked();
  await email.fill("aisha@example.ly");
  await expect(box).not.toBeChecked();
  await email.fill("");
  await expect(box).toBeChecked();
  // The customer's own choice stands from then on.
  await box.uncheck();
  await email.fill("aisha@example.ly");
  await email.fill("");
  await expect(box).not.toBeChecked();
});

test("a paid order with a phone and no e-mail, in Arabic: one receipt by SMS with a working link; a step and a cancel one more each; a replayed webhook none", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const phone = freshPhone();
  const cart = await addToCart(base, { slug: "olive-oil", lang: "ar" });
  const { hidden, delivery } = await loadCheckoutForm(base, cart, "ar");
  const details = { ...delivery, phone, full_name: "Aisha", payment_gateway: "sadad", sms_updates: "yes" };
  const started = await submitCheckout(base, cart, hidden, details, { lang: "ar" });
  expect(isPaymentPage(started.location, stack().emulatorUrl)).toBe(true);
  const back = await returnToShop(await payAtEmulator(started.location!, "sadad"), started.cookie, "ar");
  const orderId = new URL(back.orderPath, base).pathname.split("/").pop()!;

  const [receipt] = await waitForTexts(request, orderId, 1);
  await expectReceipt(receipt!, orderId, phone, "ar", "order.status.paid.title");

  // The service's webhook again: its move changes nothing, so nothing is queued or sent.
  const [delivery0] = await emulator.webhooks(request, started.location!.split("/").pop()!);
  const replay = await request.post(`${stack().emulatorUrl}/__emulator/webhooks/${delivery0!.id}/replay`);
  expect((await replay.json()).attempt).toMatchObject({ status: 200 });
  expect((await runScheduledJob(request)).ok()).toBe(true);
  expect(await textsAbout(request, orderId)).toHaveLength(1);

  // The merchant marks it packed, "tell the customer" left ticked (the box names the phone): one more message.
  await createAdmin(ADMIN.email, ADMIN.password);
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const orderUrl = `${base}/admin/orders/${orderId}`;
  const page = await getPage(orderUrl, admin);
  expect(page).toContain(shop("admin.order.notifyText", "en").replace("{phone}", phone));
  const packed = await postForm(
    orderUrl,
    formAsShown(page, { button: shop("admin.order.markStep.packed", "en") }),
    admin,
  );
  expect(packed.status).toBe(303);
  const texts = await waitForTexts(request, orderId, 2);
  expect(texts[1]!.encoding).toBe("UCS-2");
  expect(texts[1]!.text).not.toBe(texts[0]!.text);

  // Cancelled from its page, the customer told by text alone (they gave no e-mail): one more.
  const packedPage = await getPage(new URL(packed.location!, base).href, admin);
  expect(packedPage).toContain(shop("admin.afterSale.notifyText", "en").replace("{phone}", phone));
  const cancel = formAsShown(packedPage, "reason", { reason: "customer_asked", note: "She called to cancel" });
  expect((await postForm(orderUrl, cancel, admin)).status).toBe(303);
  expect((await waitForTexts(request, orderId, 3))[2]!.text).toContain(orderId);
});

test("a cash order with a phone and no e-mail: one receipt by SMS; undelivered, the merchant sees it and sends it again", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const phone = freshPhone();
  await database((pool) =>
    Promise.all([
      pool.query("update cash_on_delivery set enabled = true, fee_minor = 0 where id = 1"),
      pool.query("update delivery_zones set cash_on_delivery = true"),
    ]),
  );
  let orderId: string;
  try {
    const placed = await placeCashOrder(base, { details: { full_name: "Salem", phone, sms_updates: "yes" } });
    orderId = placed.orderPath.split("/").pop()!;
  } finally {
    await database((pool) => pool.query("update cash_on_delivery set enabled = false where id = 1"));
  }
  const [receipt] = await waitForTexts(request, orderId, 1);
  await expectReceipt(receipt!, orderId, phone, "en", "order.cash.waiting_call.title");

  // The network reports it undelivered: the merchant's home and the order's page say so, with the report.
  await database((pool) =>
    pool.query(
      "update sms_outbox set status = 'undelivered', last_error = 'delivery report: EXPIRED' where order_id = $1",
      [orderId],
    ),
  );
  await createAdmin(ADMIN.email, ADMIN.password);
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  expect(await getPage(`${base}/admin`, admin)).toContain(shop("admin.dashboard.reasons.sms_failed", "en"));
  const orderUrl = `${base}/admin/orders/${orderId}`;
  let page = await getPage(orderUrl, admin);
  const messages = (textOf(page, '[data-testid="text-messages"]') ?? "").replace(/\s+/g, " ");
  expect(messages).toContain(shop("admin.order.sms.statuses.undelivered", "en"));
  expect(messages).toContain("delivery report: EXPIRED");

  const answer = await postForm(orderUrl, formAsShown(page, { button: shop("admin.order.sms.resend", "en") }), admin);
  expect(answer.location).toMatch(/result=sms_queued$/);
  page = await getPage(new URL(answer.location!, base).href, admin);
  expect(textOf(page, "[role=status]")).toBe(shop("admin.order.results.sms_queued", "en"));
  const texts = await waitForTexts(request, orderId, 2);
  expect(texts[1]!.text).toBe(texts[0]!.text);
});
