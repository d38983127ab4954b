import { createAdmin, database, expect, mailbox, shop, signInAsAdmin, stack, test } from "./support";

/**
 * The merchant walks a paid delivery to Benghazi to "delivered" in the back office, e-mailing the customer about the
 * steps they choose: the customer (who ordered in Arabic) gets those e-mails, in Arabic, once each, even when a step
 * is clicked again from a second tab; the delivery note shows where to go and the payment's reference.
 */

const ADMIN = { email: "fulfil-admin@medina.example", password: "fulfil-admin-password-1" };
const ADDRESS = "الفويهات، شارع جمال عبد الناصر";
const REFERENCE = "TXN-FULFIL-7781";

/**
 * A delivery order as the checkout and the verified webhook leave it: paid (with the webhook's transaction reference
 * in its history), to Benghazi at the zone's fee, one line. @returns its id.
 */
async function storePaidDelivery(customer: string): Promise<string> {
  // An order id as the shop makes them (base-32 without i, l, o, u); lib/orders/store.ts is the server's only.
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  const id = `ord_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => alphabet[byte % 32]).join("")}`;
  await database(async (pool) => {
    const { rows } = await pool.query(
      "select id, name_en, name_ar, fee_minor from delivery_zones where name_en = 'Benghazi'",
    );
    const zone = rows[0];
    await pool.query(
      `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, email, phone,
         payment_token, payment_url, payment_expires_at, claim_expires_at, delivery_method, delivery_zone_id,
         delivery_city_en, delivery_city_ar, delivery_address, delivery_landmark, second_phone, delivery_fee_minor)
       values ($1, 'e2e', $1, 'paid', $2, 'LYD', 'ar', 'عائشة بن علي', $3, '+218912345678', 'pt-' || $1,
         'https://pay.example.ly/x', now() + interval '10 minutes', now(), 'delivery', $4, $5, $6, $7,
         'قرب مسجد عصمان', '+218923456789', $8)`,
      [id, 8500 + zone.fee_minor, customer, zone.id, zone.name_en, zone.name_ar, ADDRESS, zone.fee_minor],
    );
    await pool.query(
      `insert into order_lines (order_id, position, product_slug, name, unit_minor, quantity)
       values ($1, 0, 'olive-oil', 'زيت زيتون، 1 لتر', 4250, 2)`,
      [id],
    );
    await pool.query(`insert into order_events (order_id, type, data) values ($1, 'webhook_received', $2)`, [
      id,
      { verified: true, from: "awaiting_confirmation", to: "paid", gateway: "sadad", transactionId: REFERENCE },
    ]);
  });
  return id;
}

test("the merchant walks a paid delivery to delivered; the customer gets the e-mails chosen, once each; the delivery note", async ({
  browser,
  request,
}) => {
  await createAdmin(ADMIN.email, ADMIN.password);
  const customer = `fulfil-${Date.now()}@example.ly`;
  const orderId = await storePaidDelivery(customer);
  const admin = await browser.newContext();
  const page = await admin.newPage();
  await signInAsAdmin(page, ADMIN.email, ADMIN.password, "en");
  await page.goto(`/admin/orders/${orderId}`);

  // Where it goes, and the fee's own line.
  const delivery = page.getByTestId("admin-delivery");
  for (const fact of ["Benghazi", ADDRESS, "قرب مسجد عصمان", "+218923456789"])
    await expect(delivery).toContainText(fact);
  await expect(page.getByTestId("admin-fee-line")).toContainText("Delivery — Benghazi");

  const notify = page.getByLabel(shop("admin.order.notify", "en").replace("{email}", customer));
  const step = async (name: "packed" | "out_for_delivery" | "delivered", email: boolean) => {
    await expect(notify).toBeChecked(); // e-mailing is the default at every step
    if (!email) await notify.uncheck();
    await page.getByRole("button", { name: shop(`admin.order.markStep.${name}`, "en") }).click();
    // The page's result (the button's own "Saving…" is a status too, while it is pressed).
    const result = page.locator("p[role=status]");
    await expect(result).toContainText(shop(`admin.order.results.${name}`, "en"));
    if (email) await expect(result).toContainText(shop("admin.order.results.emailed", "en"));
    else await expect(result).not.toContainText(shop("admin.order.results.emailed", "en"));
  };
  // Packed without an e-mail; out for delivery with one.
  await step("packed", false);
  await step("out_for_delivery", true);
  // A second tab still shows "Mark as delivered" when the first has already pressed it: no second step, no e-mail.
  const other = await admin.newPage();
  await other.goto(`/admin/orders/${orderId}`);
  await step("delivered", true);
  await other.getByRole("button", { name: shop("admin.order.markStep.delivered", "en") }).click();
  await expect(other.locator("p[role=status]")).toHaveText(shop("admin.order.results.step_already", "en"));

  await expect(page.getByTestId("admin-order-status")).toContainText(shop("admin.steps.delivered", "en"));
  const timeline = page.getByTestId("order-timeline");
  for (const name of ["packed", "out_for_delivery", "delivered"])
    await expect(timeline).toContainText(shop(`admin.events.${name}`, "en").replace("{by}", ADMIN.email));

  // The customer's e-mails: the two steps chosen, in the order's language (Arabic), once each.
  const emails = await mailbox.waitFor(request, orderId, 2);
  expect(emails.map((email) => email.subject).sort()).toEqual(
    ["out_for_delivery", "delivered"]
      .map((name) => shop(`email.update.${name}.subject`, "ar").replace("{id}", orderId))
      .sort(),
  );
  for (const email of emails) {
    expect(email.to.map((to) => to.address)).toEqual([customer]);
    expect(email.html).toMatch(/<html[^>]* dir="rtl" lang="ar"/);
    expect(email.text).toContain(ADDRESS);
    expect(email.text).toContain("التوصيل — بنغازي");
  }
  await expect
    .poll(() =>
      database(
        async (pool) => (await pool.query("select reason from email_outbox where order_id = $1", [orderId])).rows,
      ),
    )
    .toHaveLength(2);
  expect(await mailbox.about(request, orderId)).toHaveLength(2);

  // The delivery note, from the order's page: where to go, whom to call, the items, paid online with the reference.
  await page.getByRole("link", { name: shop("admin.order.deliveryNote", "en") }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}/note$`));
  const note = page.getByTestId("delivery-note");
  await expect(note.getByTestId("delivery-note-address")).toHaveText(ADDRESS);
  for (const fact of ["قرب مسجد عصمان", "+218912345678", "+218923456789", "Benghazi", "بنغازي"])
    await expect(note).toContainText(fact);
  const line = note.getByTestId("delivery-note-line");
  await expect(line).toHaveCount(1);
  await expect(line.locator("td").first()).toHaveText("زيت زيتون، 1 لتر");
  await expect(line.locator("td").last()).toHaveText("2");
  await expect(note.getByTestId("delivery-note-payment")).toContainText("Paid online");
  await expect(note.getByTestId("delivery-note-payment")).toContainText(REFERENCE);
  await admin.close();

  // Signed out, the note is the sign-in page.
  const anonymous = await browser.newPage();
  await anonymous.goto(`${stack().shopUrl}/admin/orders/${orderId}/note`);
  await expect(anonymous).toHaveURL(/\/admin\/sign-in$/);
  await anonymous.close();
});
