import type { Pool } from "pg";
import { formatMoney } from "../lib/money";
import { addToCart, findForm, getPage, loadCheckoutForm, placeCashOrder, submitCheckout } from "../testing/no-js-shop";
import {
  addToCart as addInBrowser,
  database,
  emulator,
  expect,
  fillCheckout,
  mailbox,
  seriousViolations,
  shop,
  stack,
  test,
  type Lang,
} from "./support";

/**
 * Cash on delivery at the checkout: asked only when the merchant takes it, refused on its field when posted anyway,
 * and placed without a single call to the payment service. Driven as a browser without JavaScript drives it
 * (testing/no-js-shop.ts), in both languages; one Chromium test for what needs JavaScript (the summary's total).
 */

/** A product of its own at 77.50 LYD, so no other test's cart or stock is in the way. @returns its slug and id. */
async function newProduct(): Promise<{ slug: string; id: string }> {
  const slug = `dates-${crypto.randomUUID().slice(0, 8)}`;
  const id = await database(async (pool) => {
    const inserted = await pool.query<{ id: string }>(
      `insert into products (slug, name_en, name_ar, price_minor) values ($1, 'Deglet Nour dates', 'تمر دقلة نور', 7750) returning id`,
      [slug],
    );
    return inserted.rows[0]!.id;
  });
  return { slug, id };
}

/** Cash on delivery as the merchant sets it (the back office's settings), for the test; off again after it. */
const cashSettings = (enabled: boolean, feeMinor = 0) =>
  database((pool) =>
    pool.query(`update cash_on_delivery set enabled = $1, fee_minor = $2 where id = 1`, [enabled, feeMinor]),
  );

/** The orders stored from a phone number. */
const ordersOf = (phone: string) =>
  database(
    async (pool: Pool) =>
      (
        await pool.query<{
          id: string;
          status: string;
          payment_method: string;
          amount_minor: number;
          cash_fee_minor: number;
        }>(`select id, status, payment_method, amount_minor, cash_fee_minor from orders where phone = $1`, [phone])
      ).rows,
  );

/** A cart of the product, in `lang` (the NEXT_LOCALE cookie), as a browser without JavaScript holds it. */
async function cartIn(lang: Lang, slug: string): Promise<string> {
  const locale = `NEXT_LOCALE=${lang}`;
  return `${locale}; ${await addToCart(stack().shopUrl, { slug, cookie: locale })}`;
}

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

test("cash off (a new shop's default): the question is not asked, and a cash order posted by hand stores nothing and says so, in English and Arabic", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const { slug } = await newProduct();
  for (const [lang, phone] of [
    ["en", "0925550101"],
    ["ar", "0925550102"],
  ] as const) {
    const cookie = await cartIn(lang, slug);
    const { hidden, delivery, paymentMethods } = await loadCheckoutForm(base, cookie);
    expect(paymentMethods).toEqual([]);
    const posted = await submitCheckout(base, cookie, hidden, { ...delivery, phone, payment_method: "cash" });
    expect(posted.status).toBe(200);
    expect(posted.html).toContain(shop("problems.cashOff", lang));
    expect(posted.html).toContain(`value="${phone}"`); // what the customer typed is kept
    expect(await ordersOf(phone)).toEqual([]);
  }
  expect(await emulator.payments(request)).toEqual([]);
});

test("cash on: the posted form places the order awaiting the merchant's call, no call reaches the payment service, in Arabic and English; a city that refuses cash is refused on its field", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const { slug } = await newProduct();
  // Were anything asked of the service, the first call for an access token would meet this fault and the checkout
  // would fail; it is still queued at the end, untouched: no call reached the emulator.
  await emulator.fault(request, { route: "token", kind: "status", status: 503 });
  await cashSettings(true, 500);
  const tripoliFee = await database(
    async (pool) =>
      (await pool.query<{ fee_minor: number }>(`select fee_minor from delivery_zones where name_en = 'Tripoli'`))
        .rows[0]!.fee_minor,
  );
  try {
    for (const [lang, phone] of [
      ["ar", "0925550201"],
      ["en", "0925550202"],
    ] as const) {
      const cookie = await cartIn(lang, slug);
      expect((await loadCheckoutForm(base, cookie)).paymentMethods).toEqual(["online", "cash"]);
      const email = lang === "ar" ? { email: "hana@example.ly" } : {};
      const placed = await placeCashOrder(base, { slug, lang, details: { full_name: "Hana Salem", phone, ...email } });
      const [order] = await ordersOf(phone);
      expect(placed.orderPath).toBe(`/orders/${order!.id}`);
      expect(order).toMatchObject({
        status: "placed",
        payment_method: "cash",
        cash_fee_minor: 500,
        amount_minor: 7_750 + tripoliFee + 500,
      });
      expect(await getPage(new URL(placed.orderPath, base).href, placed.cookie)).toContain(order!.id);
      // The cart was emptied: the checkout has no form to submit again.
      expect(findForm(await getPage(new URL("/checkout", base).href, placed.cookie), "full_name")).toBeNull();
      // The customer who gave an e-mail is told the shop will call, in their language; the merchant, of a new order.
      const emails = await mailbox.waitFor(request, order!.id, lang === "ar" ? 2 : 1);
      expect(emails.map((each) => each.subject)).toContain(
        shop("email.cash.noticeSubject", "en")
          .replace("{id}", order!.id)
          .replace("{total}", formatMoney(order!.amount_minor, "en")),
      );
      if (lang === "ar")
        expect(emails.map((each) => each.subject)).toContain(
          shop("email.cash.subject", "ar").replace("{id}", order!.id),
        );
    }
    expect(await emulator.payments(request)).toEqual([]);
    const faults = await request.get(`${stack().emulatorUrl}/__emulator/faults`);
    expect((await faults.json()).faults).toEqual([expect.objectContaining({ route: "token", remaining: 1 })]);

    // A city that does not take cash: refused on the question's field, the input kept, nothing stored.
    const cookie = await cartIn("en", slug);
    const { hidden, delivery } = await loadCheckoutForm(base, cookie);
    await database((pool) =>
      pool.query(`update delivery_zones set cash_on_delivery = false where id = $1`, [delivery.delivery_zone]),
    );
    const phone = "0925550203";
    const refused = await submitCheckout(base, cookie, hidden, { ...delivery, phone, payment_method: "cash" });
    expect(refused.status).toBe(200);
    expect(refused.html).toContain(shop("problems.cashZone", "en"));
    expect(refused.html).toContain('id="payment_method-error"');
    expect(await ordersOf(phone)).toEqual([]);
  } finally {
    await cashSettings(false);
    await database((pool) => pool.query(`update delivery_zones set cash_on_delivery = true`));
  }
});

test("with JavaScript, choosing cash on delivery adds the cash fee's line to the summary and its total, and places the order; axe clean", async ({
  page,
}) => {
  const { slug } = await newProduct();
  await cashSettings(true, 500);
  try {
    await addInBrowser(page, slug);
    await page.goto("/checkout");
    await fillCheckout(page, { full_name: "Hana Salem", phone: "0925550301" });
    const total = page.getByTestId("order-total");
    const tripoliFee = 1_000;
    await expect(total).toHaveText(formatMoney(7_750 + tripoliFee, "en"));
    await page.getByRole("radio", { name: shop("checkout.cash.cash") }).check();
    await expect(page.getByTestId("cash-fee")).toHaveText(formatMoney(500, "en"));
    await expect(total).toHaveText(formatMoney(7_750 + tripoliFee + 500, "en"));
    await expect(page.getByTestId("gateway-fieldset")).toBeHidden();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("radio", { name: shop("checkout.cash.online") }).check();
    await expect(page.getByTestId("cash-fee-line")).toHaveCount(0);
    await expect(total).toHaveText(formatMoney(7_750 + tripoliFee, "en"));

    await page.getByRole("radio", { name: shop("checkout.cash.cash") }).check();
    await page.getByRole("button", { name: shop("checkout.cash.submitCash") }).click();
    await expect(page).toHaveURL(/\/orders\/[^/?]+$/);
  } finally {
    await cashSettings(false);
  }
});
