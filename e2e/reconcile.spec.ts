import type { APIRequestContext } from "@playwright/test";
import { formatMoney } from "../lib/money";
import { browse, payAtEmulator, returnToShop, startPayment, textsOf } from "../testing/no-js-shop";
import { baseShopEnv } from "./stacks";
import {
  type CaughtEmail,
  createAdmin,
  database,
  emulator,
  expect,
  mailbox,
  shop,
  signInAsAdmin,
  stack,
  test,
} from "./support";

/**
 * A paid order lost for real, and found again from the merchant's own records. Two customers pay (1 × saffron, 18.75
 * LYD) and the service's webhooks for both are lost. One closes the tab before the payment page sends them back: the
 * expiry job expires the order and their page says "expired" while the service holds the money. The other comes back,
 * and a day later the job flags the unconfirmed report and e-mails the merchant, once. The merchant pastes the
 * dashboard's list of payments into the back office, checks it, applies it: both orders become paid, flagged, audited,
 * and the e-mails of a paid order arrive. The same list uploaded as a file then has nothing left to apply.
 */

const ADMIN = { email: "reconcile-admin@medina.example", password: "reconcile-admin-password-1" };
const MERCHANT = baseShopEnv.MERCHANT_EMAIL;
const heading = (status: string) => shop(`order.status.${status}.title`, "en");
const runScheduledJob = async (request: APIRequestContext) => {
  const response = await request.get(`${stack().env.SITE_URL}/api/cron/expire-orders`, {
    headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` },
  });
  expect(response.status()).toBe(200);
};
const to = (email: CaughtEmail) => email.to.map((address) => address.address).join(",");
const fill = (template: string, values: Record<string, string>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replace(`{${name}}`, value), template);

/**
 * A customer with 1 × saffron, delivered to Tripoli, checks out with Sadad as a browser without JavaScript does
 * (testing/no-js-shop.ts) and is sent to the payment page. @returns the session cookie, the payment URL and token.
 */
const toPaymentPage = (email: string) =>
  startPayment(stack().shopUrl, stack().emulatorUrl, {
    slug: "saffron",
    details: { email, payment_gateway: "sadad" },
  });

/** The headings of an order's page, as the customer with the session `cookie` sees it. */
const headingsOf = async (orderId: string, cookie: string) =>
  textsOf((await browse(`${stack().shopUrl}/orders/${orderId}`, cookie)).html, "h1, h2");

test("a payment whose webhooks were all lost and whose order expired is found by reconciling the dashboard's list", async ({
  browser,
  request,
}) => {
  await emulator.reset(request);
  await emulator.fault(request, { route: "webhook", kind: "drop", count: 2 });
  const run = Date.now();

  // Customer A pays and closes the tab before the payment page sends them back: the service takes the payment and
  // answers with its redirect to the shop, which is never followed.
  const lost = await toPaymentPage(`lost-${run}@example.ly`);
  expect(await payAtEmulator(lost.paymentUrl, "sadad")).toContain("/checkout/return?");
  // Customer B pays and comes back: the payment is reported, never confirmed.
  const reported = await toPaymentPage(`reported-${run}@example.ly`);
  const back = await returnToShop(await payAtEmulator(reported.paymentUrl, "sadad"), reported.cookie);
  const backPage = await browse(new URL(back.orderPath, stack().shopUrl).href, back.cookie);
  expect(textsOf(backPage.html, "h1, h2")).toContain(heading("awaiting_confirmation"));

  // The service holds both payments; the shop heard of neither.
  const payments = await emulator.payments(request);
  const paymentOf = (token: string) => payments.find((payment) => payment.token === token)!;
  const [idA, idB] = [paymentOf(lost.token).custom!, paymentOf(reported.token).custom!];
  expect([paymentOf(lost.token).status, paymentOf(reported.token).status]).toEqual(["paid", "paid"]);
  const reference = async (token: string) => {
    const [delivery] = await emulator.webhooks(request, token);
    expect(delivery!.state).toBe("dropped");
    return JSON.parse(delivery!.body).transaction_id as string;
  };
  const [referenceA, referenceB] = [await reference(lost.token), await reference(reported.token)];

  // Eleven minutes on, A's payment page is dead; a day on, B's report is overdue. The job runs twice.
  await database(async (pool) => {
    await pool.query("update orders set payment_expires_at = now() - interval '1 minute' where id = $1", [idA]);
    await pool.query(
      "update orders set payment_expires_at = now() - interval '25 hours', customer_returned_at = now() - interval '25 hours' where id = $1",
      [idB],
    );
  });
  await runScheduledJob(request);
  expect(await headingsOf(idA, lost.cookie)).toContain(heading("expired"));

  // The job's flag e-mails the merchant, once however often it runs.
  const [flagNotice] = await mailbox.waitFor(request, idB, 1);
  expect(to(flagNotice!)).toBe(MERCHANT);
  expect(flagNotice!.subject).toBe(
    fill(shop("email.notice.subjectUnconfirmed", "en"), { id: idB, total: formatMoney(2875, "en") }),
  );
  expect(flagNotice!.text).toContain(shop("email.flags.unconfirmed_report", "en"));
  await runScheduledJob(request);
  const outboxOf = (id: string) =>
    database(async (pool) => (await pool.query("select reason from email_outbox where order_id = $1", [id])).rows);
  expect(await outboxOf(idB)).toEqual([{ reason: "unconfirmed_report" }]);

  // The merchant pastes the dashboard's list: semicolons, decimal commas, A by its token, B by its order number, and
  // a payment of another shop on the same account.
  const today = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Tripoli" }).format(new Date());
  const list = [
    "Payment token;Order number;Amount;Transaction reference;Date",
    `${lost.token};;28,75;${referenceA};${today}`,
    `;${idB};28,75;${referenceB};${today}`,
    `pt-of-another-shop;;5,00;TXN-ELSEWHERE;${today}`,
  ].join("\n");
  await createAdmin(ADMIN.email, ADMIN.password);
  const admin = await (await browser.newContext({ locale: "en-US" })).newPage();
  await signInAsAdmin(admin, ADMIN.email, ADMIN.password, "en");
  await admin.getByRole("link", { name: shop("admin.nav.reconcile", "en") }).click();
  await admin.getByLabel(shop("admin.reconcile.paste", "en")).fill(list);
  await admin.getByRole("button", { name: shop("admin.reconcile.check", "en") }).click();
  await expect(admin).toHaveURL(/\/admin\/reconcile\/lst_[0-9a-z]{16}$/);

  // The check (nothing has changed yet): two to mark paid, one without an order.
  const toMark = admin.getByTestId("group-mark_paid");
  await expect(toMark.getByTestId("list-row")).toHaveCount(2);
  await expect(toMark).toContainText(idA);
  await expect(toMark).toContainText(idB);
  await expect(admin.getByTestId("group-no_order")).toContainText("pt-of-another-shop");
  await expect(admin.getByTestId("missing")).not.toContainText(idA);
  expect(await outboxOf(idA)).toEqual([]);

  await admin.getByRole("button", { name: "Mark 2 orders paid" }).click();
  await expect(admin.getByRole("status")).toHaveText(shop("admin.list.results.applied", "en"));
  await expect(admin.getByTestId("group-marked_paid").getByTestId("list-row")).toHaveCount(2);
  await expect(admin.getByRole("button", { name: /Mark \d+ orders? paid/ })).toHaveCount(0);

  // The order is paid, flagged and audited, its flag resolved by the list's own mark; the customer's page says so.
  await admin.getByRole("link", { name: idA }).first().click();
  await expect(admin.getByTestId("resolved-flags")).toContainText(shop("admin.flags.paid_manually", "en"));
  await expect(admin.getByTestId("order-flags")).toHaveCount(0);
  const timeline = admin.getByTestId("order-timeline");
  await expect(timeline).toContainText(`Marked paid by ${ADMIN.email} (reference ${referenceA})`);
  await expect(timeline).toContainText(shop("admin.events.fromList", "en"));
  expect(await headingsOf(idA, lost.cookie)).toContain(heading("paid"));

  // The e-mails of a paid order arrive: the receipt, and the merchant's notice with the flag spelled out.
  const emailsA = await mailbox.waitFor(request, idA, 2);
  const noticeA = emailsA.find((email) => to(email) === MERCHANT)!;
  expect(noticeA.subject).toBe(
    fill(shop("email.notice.subjectFlagged", "en"), { id: idA, total: formatMoney(2875, "en") }),
  );
  expect(noticeA.text).toContain(shop("email.flags.paid_manually", "en"));
  expect(emailsA.map(to)).toContain(`lost-${run}@example.ly`);
  await mailbox.waitFor(request, idB, 3); // the flag's notice, then the receipt and the paid notice

  // The same list again, now as the dashboard's file (a byte order mark, Windows line ends): nothing left to apply.
  await admin.getByRole("link", { name: shop("admin.nav.reconcile", "en") }).click();
  const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(list.replaceAll("\n", "\r\n"))]);
  await admin
    .getByLabel(shop("admin.reconcile.file", "en").replace("{kb}", "512"))
    .setInputFiles({ name: "payments.csv", mimeType: "text/csv", buffer: file });
  await admin.getByRole("button", { name: shop("admin.reconcile.check", "en") }).click();
  await expect(admin.getByText("from the file payments.csv")).toBeVisible();
  await expect(admin.getByTestId("group-already_paid").getByTestId("list-row")).toHaveCount(2);
  await expect(admin.getByRole("button", { name: /Mark \d+ orders? paid/ })).toHaveCount(0);
});
