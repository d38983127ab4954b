import { createHmac } from "node:crypto";
import { parse } from "csv-parse/sync";
import { newOrderId } from "../lib/ids";
import { formatDiscount, formatMoney } from "../lib/money";
import { adminCookie, getPage, parseHtml, select, textOf, textsOf } from "../testing/no-js-shop";
import { createAdmin, database, expect, shop, stack, test } from "./support";

/**
 * A promo code's discount wherever the order's money is shown: the customer's page opened by the receipt's signed link
 * (in both languages), the back office's order and its delivery note, the merchant's home (the discounts of the day,
 * per code, linked to that code's orders) and the CSV. The order is stored as the checkout's claim stores one priced
 * with a code (`amount_minor` already net of `discount_minor`); every page is read as a browser without JavaScript
 * reads it: no page here needs a script to show its money.
 */

/** The receipt's link key for an order (lib/orders/order-link.ts: HMAC-SHA256 of `order-link:v1:<id>`, base64url). */
const linkKey = (orderId: string) =>
  createHmac("sha256", stack().env.ORDER_LINK_SECRET!).update(`order-link:v1:${orderId}`).digest("base64url");

test("an order priced with a promo code shows its discount on the customer's link in both languages, the back office's order and delivery note, the home's discounts per code and the CSV", async () => {
  const base = stack().shopUrl;
  const code = `EID${crypto.randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`;
  const id = newOrderId();
  // 2 × 21.25 = 42.50 of lines, 10 % off rounded down: 4.25; paid 38.25, today.
  await database(async (pool) => {
    const {
      rows: [promo],
    } = await pool.query<{ id: string }>(
      "insert into promo_codes (code, kind, percent) values ($1, 'percent', 10) returning id",
      [code],
    );
    await pool.query(
      `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, payment_token,
         payment_url, payment_expires_at, claim_expires_at, paid_at, promo_code_id, promo_code, discount_minor)
       values ($1, 'discounts-spec', $1, 'paid', 3825, 'LYD', 'en', $2, $3, now(), now(), now(), $4, $5, 425)`,
      [id, `pt-${id}`, `https://pay.example.ly/pay/pt-${id}`, promo!.id, code],
    );
    await pool.query(
      `insert into order_lines (order_id, position, product_slug, name, unit_minor, quantity)
       values ($1, 0, 'olive-oil', 'Olive oil', 2125, 2)`,
      [id],
    );
  });

  // The customer's page, from the receipt's link, in English and Arabic: the total paid, and the code that took 4.25.
  for (const lang of ["en", "ar"] as const) {
    const html = await getPage(`${base}/orders/${id}?key=${linkKey(id)}`, "", 200, lang);
    expect(textOf(html, '[data-testid="order-total"]')).toBe(formatMoney(3825, lang));
    expect(textOf(html, '[data-testid="discount-line"] dt')).toBe(
      shop("checkout.promo.line", lang).replace("{code}", code),
    );
    expect(textOf(html, '[data-testid="discount"]')).toBe(formatDiscount(425, lang));
  }

  const account = {
    email: `discounts-${crypto.randomUUID().slice(0, 8)}@medina.example`,
    password: "a-promo-password-1",
  };
  await createAdmin(account.email, account.password);
  const admin = await adminCookie(stack().shopUrl, account.email, account.password);

  // The back office's order: the discount's own line before the total.
  const orderPage = await getPage(`${base}/admin/orders/${id}`, admin);
  expect(textOf(orderPage, '[data-testid="admin-discount-line"]')).toBe(`Discount (${code})${formatDiscount(425)}`);
  // The delivery note, in both languages.
  const note = await getPage(`${base}/admin/orders/${id}/note`, admin);
  expect(textOf(note, '[data-testid="delivery-note-discount"]')).toBe(`Discount (${code}) · خصم (${code})`);
  expect(note).toContain(formatDiscount(425));

  // The home: today's discounts per code, the code's count linking to the list of its orders.
  const home = await getPage(`${base}/admin?period=today`, admin);
  const codes = textsOf(home, '[data-testid="discounts-table"] tbody th');
  expect(codes).toContain(code);
  const row = select('[data-testid="discounts-table"] tbody tr', parseHtml(home))[codes.indexOf(code)]!;
  expect(textsOf(home, '[data-testid="discounts-table"] tbody td')[2 * codes.indexOf(code) + 1]).toBe(formatMoney(425));
  const link = select("a", row)[0]!.attribs.href!;
  expect(link).toContain(`promo=${code}`);
  const listed = await getPage(new URL(link, base).href, admin);
  expect(listed).toContain(id);
  expect(textOf(listed, '[data-testid="orders-narrowed"]')).toContain(
    shop("admin.orders.promo.narrowed", "en").replace("{code}", code),
  );

  // The CSV of that code's orders: the code and the discount, appended; the amount is what was paid.
  const csv = await getPage(`${base}/admin/orders/export?promo=${code}`, admin);
  const [header, ...rows] = parse(csv.replace(/^\uFEFF/, "")) as string[][];
  expect(rows).toHaveLength(1);
  const exported = Object.fromEntries(header!.map((name, i) => [name, rows[0]![i]]));
  expect(exported).toMatchObject({ order: id, amount: "38.25", promo_code: code, discount: "4.25" });
});
