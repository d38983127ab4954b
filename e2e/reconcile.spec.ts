import type { APIRequestContext } from "@playwright/test";
import { formatMoney } from "../lib/money";
import {
  adminCookie,
  browse,
  formAsShown,
  getPage,
  hrefOf,
  nodeText,
  parseHtml,
  payAtEmulator,
  postForm,
  returnToShop,
  select,
  startPayment,
  textOf,
  textsOf,
  type WhichForm,
} from "../testing/no-js-shop";
import { baseShopEnv } from "./stacks";
import { type CaughtEmail, createAdmin, database, emulator, expect, mailbox, shop, stack, test } from "./support";

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
  // The back office's forms work without JavaScript: the merchant's browser is driven as one without it.
  await createAdmin(ADMIN.email, ADMIN.password);
  const base = stack().shopUrl;
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const open = (path: string) => getPage(new URL(path, base).href, admin);
  /** Submits the form of `html` (the page at `path`) that is `which`. @returns where it went and that page. */
  const submit = async (
    path: string,
    html: string,
    which: WhichForm,
    { changes = {}, file }: { changes?: Record<string, string>; file?: File } = {},
  ) => {
    const fields = [...formAsShown(html, which, changes), ...(file ? [["file", file] as [string, File]] : [])];
    const answer = await postForm(new URL(path, base).href, fields, admin);
    expect(answer.status).toBe(303);
    return { path: answer.location!, html: await open(answer.location!) };
  };
  const shown = (html: string, testId: string) =>
    (textOf(html, `[data-testid="${testId}"]`) ?? "").replace(/\s+/g, " ");
  const rows = (html: string, group: string) =>
    select(`[data-testid="group-${group}"] [data-testid="list-row"]`, parseHtml(html));
  const markButtons = (html: string) =>
    select("button", parseHtml(html)).filter((button) => /Mark \d+ orders? paid/.test(nodeText(button)));

  const reconcile = hrefOf(await open("/admin"), shop("admin.nav.reconcile", "en"));
  const form = await open(reconcile);
  const checked = await submit(reconcile, form, "list", { changes: { list } });
  expect(checked.path).toMatch(/^\/admin\/reconcile\/lst_[0-9a-z]{16}$/);

  // The check (nothing has changed yet): two to mark paid, one without an order.
  expect(rows(checked.html, "mark_paid")).toHaveLength(2);
  expect(shown(checked.html, "group-mark_paid")).toContain(idA);
  expect(shown(checked.html, "group-mark_paid")).toContain(idB);
  expect(shown(checked.html, "group-no_order")).toContain("pt-of-another-shop");
  expect(shown(checked.html, "missing")).not.toContain(idA);
  expect(await outboxOf(idA)).toEqual([]);

  const applied = await submit(checked.path, checked.html, { button: "Mark 2 orders paid" });
  expect(textOf(applied.html, "[role=status]")).toBe(shop("admin.list.results.applied", "en"));
  expect(rows(applied.html, "marked_paid")).toHaveLength(2);
  expect(markButtons(applied.html)).toHaveLength(0);

  // The order is paid, flagged and audited, its flag resolved by the list's own mark; the customer's page says so.
  const orderA = await open(hrefOf(applied.html, idA));
  expect(shown(orderA, "resolved-flags")).toContain(shop("admin.flags.paid_manually", "en"));
  expect(textOf(orderA, '[data-testid="order-flags"]')).toBeNull();
  expect(shown(orderA, "order-timeline")).toContain(`Marked paid by ${ADMIN.email} (reference ${referenceA})`);
  expect(shown(orderA, "order-timeline")).toContain(shop("admin.events.fromList", "en"));
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
  const again = hrefOf(orderA, shop("admin.nav.reconcile", "en"));
  const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(list.replaceAll("\n", "\r\n"))]);
  const fromFile = await submit(again, await open(again), "list", {
    file: new File([file], "payments.csv", { type: "text/csv" }),
  });
  expect(textOf(fromFile.html, "body")!.replace(/\s+/g, " ")).toContain("from the file payments.csv");
  expect(rows(fromFile.html, "already_paid")).toHaveLength(2);
  expect(markButtons(fromFile.html)).toHaveLength(0);
});
