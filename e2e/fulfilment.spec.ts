import {
  adminCookie,
  browse,
  formAsShown,
  getPage,
  hrefOf,
  nodeText,
  parseHtml,
  postForm,
  select,
  textOf,
} from "../testing/no-js-shop";
import { createAdmin, database, expect, mailbox, shop, stack, test } from "./support";

/**
 * The merchant walks a paid delivery to Benghazi to "delivered" in the back office, e-mailing the customer about the
 * steps they choose: the customer (who ordered in Arabic) gets those e-mails, in Arabic, once each, even when a step
 * is clicked again from a second tab; the delivery note shows where to go and the payment's reference. The back
 * office's forms work without JavaScript: the merchant's browser is driven as one without it (testing/no-js-shop.ts).
 */

const ADMIN = { email: "fulfil-admin@medina.example", password: "fulfil-admin-password-1" };
const ADDRESS = "الفويهات، شارع جمال عبد الناصر";
const REFERENCE = "TXN-FULFIL-7781";

/** The text of the element `testId` of `html` as a reader sees it (spaces run together), or "" when there is none. */
const shown = (html: string, testId: string) =>
  (textOf(html, `[data-testid="${testId}"]`) ?? "").replace(/\s+/g, " ").trim();

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
  request,
}) => {
  await createAdmin(ADMIN.email, ADMIN.password);
  const customer = `fulfil-${Date.now()}@example.ly`;
  const orderId = await storePaidDelivery(customer);
  const base = stack().shopUrl;
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const orderUrl = `${base}/admin/orders/${orderId}`;
  let page = await getPage(orderUrl, admin);

  // Where it goes, and the fee's own line.
  for (const fact of ["Benghazi", ADDRESS, "قرب مسجد عصمان", "+218923456789"])
    expect(shown(page, "admin-delivery")).toContain(fact);
  expect(shown(page, "admin-fee-line")).toContain("Delivery — Benghazi");

  const notify = shop("admin.order.notify", "en").replace("{email}", customer);
  /** Presses the step's button on `from` (the page as a tab shows it), e-mailing or not. @returns the page it shows then. */
  const press = async (from: string, name: "packed" | "out_for_delivery" | "delivered", email: boolean) => {
    const button = { button: shop(`admin.order.markStep.${name}`, "en") };
    const answer = await postForm(orderUrl, formAsShown(from, button, { notify: email }), admin);
    expect(answer.status).toBe(303);
    return getPage(new URL(answer.location!, base).href, admin);
  };
  const step = async (name: "packed" | "out_for_delivery" | "delivered", email: boolean) => {
    // E-mailing is the default at every step: the box, named for the customer's address, comes ticked.
    const box = select("label", parseHtml(page)).find((label) => nodeText(label).trim() === notify);
    expect(box && select('input[name="notify"]', box)[0]?.attribs).toHaveProperty("checked");
    page = await press(page, name, email);
    // The page's result.
    const result = textOf(page, "p[role=status]") ?? "";
    expect(result).toContain(shop(`admin.order.results.${name}`, "en"));
    if (email) expect(result).toContain(shop("admin.order.results.emailed", "en"));
    else expect(result).not.toContain(shop("admin.order.results.emailed", "en"));
  };
  // Packed without an e-mail; out for delivery with one.
  await step("packed", false);
  await step("out_for_delivery", true);
  // A second tab still shows "Mark as delivered" when the first has already pressed it: no second step, no e-mail.
  const other = await getPage(orderUrl, admin);
  await step("delivered", true);
  expect(textOf(await press(other, "delivered", true), "p[role=status]")).toBe(
    shop("admin.order.results.step_already", "en"),
  );

  expect(shown(page, "admin-order-status")).toContain(shop("admin.steps.delivered", "en"));
  for (const name of ["packed", "out_for_delivery", "delivered"])
    expect(shown(page, "order-timeline")).toContain(shop(`admin.events.${name}`, "en").replace("{by}", ADMIN.email));

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
  const notePath = hrefOf(page, shop("admin.order.deliveryNote", "en"));
  expect(notePath).toMatch(new RegExp(`/admin/orders/${orderId}/note$`));
  const note = await getPage(new URL(notePath, base).href, admin);
  expect(shown(note, "delivery-note-address")).toBe(ADDRESS);
  for (const fact of ["قرب مسجد عصمان", "+218912345678", "+218923456789", "Benghazi", "بنغازي"])
    expect(shown(note, "delivery-note")).toContain(fact);
  const lines = select('[data-testid="delivery-note-line"]', parseHtml(note));
  expect(lines).toHaveLength(1);
  const cells = select("td", lines[0]!).map((cell) => nodeText(cell).trim());
  expect(cells[0]).toBe("زيت زيتون، 1 لتر");
  expect(cells.at(-1)).toBe("2");
  expect(shown(note, "delivery-note-payment")).toContain("Paid online");
  expect(shown(note, "delivery-note-payment")).toContain(REFERENCE);

  // Signed out, the note is the sign-in page.
  expect((await browse(new URL(notePath, base).href)).url).toMatch(/\/admin\/sign-in$/);
});
