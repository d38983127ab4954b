import type { Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { browse, placePaidOrder, textsOf, type CheckoutDetails } from "../testing/no-js-shop";
import { baseShopEnv } from "./stacks";
import {
  createAdmin,
  database,
  emulator,
  expect,
  seriousViolations,
  shop,
  signInAsAdmin,
  stack,
  test,
} from "./support";

/**
 * The records reconcile, as the merchant reads them in Arabic. Two customers buy in English: Aisha picks Edfali on
 * the payment page and the service's webhook confirms her payment; Yusuf picks Sadad at checkout, and the service's
 * delivery names another amount. A day later the scheduled job flags his report as unconfirmed. The merchant, in
 * Arabic, marks his order paid with the dashboard's reference (which resolves the flags the mark answers), resolves
 * the amount with a note, and downloads the CSV.
 */

const ADMIN = { email: "records-admin@medina.example", password: "records-admin-password-1" };
const ar = (key: string) => shop(key, "ar");

/**
 * A customer buys 1 × saffron in English, delivered to Tripoli, and pays with `payWith` on the payment page, as a
 * browser without JavaScript does (testing/no-js-shop.ts): the merchant's pages are what this test is about.
 * @returns the order's id and the headings of the order page the customer comes back to.
 */
async function buy(details: CheckoutDetails, payWith: string): Promise<{ id: string; headings: string[] }> {
  const back = await placePaidOrder(stack().shopUrl, stack().emulatorUrl, { slug: "saffron", details, payWith });
  const orderPage = await browse(new URL(back.orderPath, stack().shopUrl).href, back.cookie);
  return { id: new URL(orderPage.url).pathname.split("/").pop()!, headings: textsOf(orderPage.html, "h1, h2") };
}

/**
 * What the database holds that a page may show as it is: ids, payment tokens, e-mails, names and addresses typed,
 * references.
 */
async function dataValues(ids: string[]): Promise<string[]> {
  return database(async (pool) => {
    const { rows } = await pool.query(
      `select id, payment_token, email, full_name, delivery_address, delivery_landmark from orders where id = any($1)
       union all
       select null, null, data->>'recipient', coalesce(data->>'transactionId', data->>'reference'), null, null
       from order_events where order_id = any($1)`,
      [ids],
    );
    return rows.flatMap((row: Record<string, string | null>) => Object.values(row).filter((value) => value !== null));
  });
}

/**
 * Asserts that every word the page shows is Arabic, except the data values given (and text marked as another
 * language: the switch to English, written in English for those who cannot read Arabic).
 */
async function expectAllArabic(page: Page, allowed: string[]) {
  const text = await page.evaluate(() => {
    for (const element of document.querySelectorAll('body [lang]:not([lang|="ar"])')) element.remove();
    return document.body.innerText;
  });
  const rest = [...allowed]
    .sort((a, b) => b.length - a.length)
    .reduce((left, value) => left.replaceAll(value, ""), text);
  expect(rest.match(/[A-Za-z][\w'’-]*/g) ?? [], `Latin words on ${page.url()}`).toEqual([]);
}

test("the merchant reads every order in Arabic, resolves its flags, and the CSV carries the payment as recorded", async ({
  browser,
  request,
}) => {
  await emulator.reset(request);
  const run = Date.now();
  const aisha = { full_name: "Aisha Ben Ali", email: `aisha-${run}@example.ly` };
  const yusuf = { email: `yusuf-${run}@example.ly`, payment_gateway: "sadad" };

  // Aisha chooses Edfali on the payment page, not at checkout; the webhook confirms her payment.
  const paid = await buy(aisha, "edfali");
  expect(paid.headings).toContain(shop("order.status.paid.title", "en"));
  const paidId = paid.id;

  // Yusuf pays; the service's delivery names another amount, so his order stays "confirming".
  await emulator.fault(request, { route: "webhook", kind: "amount", amount: 1, count: 1 });
  const reported = await buy(yusuf, "sadad");
  expect(reported.headings).toContain(shop("order.status.awaiting_confirmation.title", "en"));
  const reportedId = reported.id;
  // A day later, still no confirmation: the scheduled job flags the report too.
  await database((pool) =>
    pool.query("update orders set customer_returned_at = now() - interval '25 hours' where id = $1", [reportedId]),
  );
  const job = await request.get(`${stack().env.SITE_URL}/api/cron/expire-orders`, {
    headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` },
  });
  expect(job.status()).toBe(200);

  await createAdmin(ADMIN.email, ADMIN.password);
  const admin = await (await browser.newContext({ locale: "ar-LY", acceptDownloads: true })).newPage();
  await signInAsAdmin(admin, ADMIN.email, ADMIN.password, "ar");
  const flagged = async (email: string) => {
    await admin.goto(`/admin/orders?status=flagged&q=${encodeURIComponent(email)}`);
    return admin.getByTestId("admin-order-row").count();
  };
  expect(await flagged(yusuf.email)).toBe(1);
  const allowed = [ADMIN.email, baseShopEnv.MERCHANT_EMAIL];

  // Aisha's order, placed in English and paid through the webhook: every word in Arabic.
  await admin.goto(`/admin/orders/${paidId}`);
  await expect(admin.getByTestId("order-timeline")).toContainText(ar("admin.events.returnTypes.success"));
  await expectAllArabic(admin, [...allowed, ...(await dataValues([paidId]))]);

  // Yusuf's: both flags to look at. The mark as paid answers the report and is its own record; the amount stays.
  await admin.goto(`/admin/orders/${reportedId}`);
  const open = admin.getByTestId("order-flags");
  await expect(open).toContainText(ar("admin.flags.unconfirmed_report"));
  await expect(open).toContainText(ar("admin.flags.amount_mismatch"));
  await admin.getByLabel(ar("admin.order.reference")).fill(`DASH-${run}`);
  await admin.getByLabel(ar("admin.order.note")).fill("ظهرت الدفعة في لوحة التاجر");
  await admin.getByRole("button", { name: ar("admin.order.markPaid") }).click();
  await expect(admin.getByRole("status")).toHaveText(ar("admin.order.results.marked_paid"));
  await expect(open).not.toContainText(ar("admin.flags.unconfirmed_report"));
  await expect(open).toContainText(ar("admin.flags.amount_mismatch"));
  const resolved = admin.getByTestId("resolved-flags");
  await expect(resolved).toContainText(ar("admin.flags.unconfirmed_report"));
  await expect(resolved).toContainText(ar("admin.flags.paid_manually"));
  await expect(resolved).toContainText(`DASH-${run}`);
  // The flag to resolve (its form) and the flags dealt with, for axe too (e2e/a11y.spec.ts has the other pages).
  expect(await seriousViolations(admin)).toEqual([]);
  expect(await flagged(yusuf.email)).toBe(1);

  // The resolve form posted from another site with the admin's own cookie, or from here without a session: refused,
  // and the flag stays to look at.
  await admin.goto(`/admin/orders/${reportedId}`);
  const form = admin.locator("form", { has: admin.getByRole("button", { name: ar("admin.order.resolve") }) });
  const hidden = await form
    .locator("input[type=hidden]")
    .evaluateAll((inputs) =>
      inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value]),
    );
  const forged = { ...Object.fromEntries(hidden), note: "forged" };
  const path = `/admin/orders/${reportedId}`;
  const crossSite = await admin.request.post(path, {
    multipart: forged,
    headers: { Origin: stack().emulatorUrl },
    maxRedirects: 0,
  });
  expect(crossSite.status()).toBeGreaterThanOrEqual(400);
  const signedOut = await request.post(path, {
    multipart: forged,
    headers: { Origin: stack().shopUrl },
    maxRedirects: 0,
  });
  expect(signedOut.headers()["location"] ?? signedOut.headers()["x-action-redirect"]).toMatch(/\/admin\/sign-in/);
  const [stillOpen] = await database(
    async (pool) => (await pool.query("select resolved_flags from orders where id = $1", [reportedId])).rows,
  );
  expect(stillOpen.resolved_flags).not.toContain("amount_mismatch");

  // The merchant refunds the difference and says so: the order is no longer flagged; its flags stay in the history.
  const flagName = ar("admin.flags.amount_mismatch");
  await admin.getByLabel(ar("admin.order.resolveNote").replace("{flag}", flagName)).fill("أُعيد الفرق إلى العميل");
  await admin.getByRole("button", { name: ar("admin.order.resolve") }).click();
  await expect(admin.getByRole("status")).toHaveText(ar("admin.order.results.flag_resolved"));
  await expect(open).toHaveCount(0);
  await expect(resolved).toContainText("أُعيد الفرق إلى العميل");
  await expect(admin.getByTestId("order-timeline")).toContainText(
    ar("admin.events.flag_resolved").replace("{by}", ADMIN.email).replace("{flag}", flagName),
  );
  await expectAllArabic(admin, [...allowed, ...(await dataValues([reportedId]))]);
  expect(await flagged(yusuf.email)).toBe(0);

  await admin.goto("/admin/orders");
  // On a phone, right to left: every order's total and status in view, nothing to scroll sideways for.
  const size = admin.viewportSize()!;
  await admin.setViewportSize({ width: 360, height: 800 });
  for (const testId of ["admin-order-total", "admin-order-status"])
    for (const cell of await admin.getByTestId(testId).all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await admin.setViewportSize(size);

  // The CSV, as the merchant opens it.
  const [download] = await Promise.all([
    admin.waitForEvent("download"),
    admin.getByRole("link", { name: ar("admin.orders.export") }).click(),
  ]);
  const [header, ...rows] = parse(
    await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8")),
    { bom: true },
  ) as string[][];
  const row = (id: string) =>
    Object.fromEntries(header!.map((column, i) => [column, rows.find((cells) => cells[0] === id)![i]]));
  // The delivery that moved the order to paid: Aisha's return, recorded after it, says "to paid" too.
  const [{ transaction_id: transactionId }] = await database(
    async (pool) =>
      (
        await pool.query(
          `select data->>'transactionId' as transaction_id from order_events
           where order_id = $1 and type = 'webhook_received' and data->>'to' = 'paid'`,
          [paidId],
        )
      ).rows,
  );
  expect(transactionId).toMatch(/\S/);
  const libyaTime = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
  expect(row(paidId)).toMatchObject({
    status: "paid",
    full_name: aisha.full_name,
    gateway: "",
    paid_with: "edfali",
    transaction_reference: transactionId,
    flags: "",
  });
  expect(row(paidId).created_at).toMatch(libyaTime);
  expect(row(paidId).paid_at).toMatch(libyaTime);
  expect(row(reportedId)).toMatchObject({
    status: "paid",
    gateway: "sadad",
    paid_with: "",
    transaction_reference: `DASH-${run}`,
    flags: "",
    resolved_flags: "amount_mismatch unconfirmed_report paid_manually",
  });
});
