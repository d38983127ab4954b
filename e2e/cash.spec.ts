import type { Pool } from "pg";
import { formatMoney } from "../lib/money";
import {
  addToCart,
  adminCookie,
  adminForm,
  findForm,
  getPage,
  loadCheckoutForm,
  placeCashOrder,
  postForm,
  submitCheckout,
  textOf,
} from "../testing/no-js-shop";
import {
  addToCart as addInBrowser,
  createAdmin,
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

for (const lang of ["en", "ar"] as const) {
  test(`with JavaScript, choosing cash on delivery adds the cash fee's line to the summary and its total, and places the order; axe clean (${lang})`, async ({
    page,
  }) => {
    const { slug } = await newProduct();
    await cashSettings(true, 500);
    try {
      await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
      await addInBrowser(page, slug, 1, lang);
      await page.goto("/checkout");
      await fillCheckout(page, { full_name: "Hana Salem", phone: lang === "en" ? "0925550301" : "0925550302" }, lang);
      const total = page.getByTestId("order-total");
      const tripoliFee = 1_000;
      await expect(total).toHaveText(formatMoney(7_750 + tripoliFee, lang));
      await page.getByRole("radio", { name: shop("checkout.cash.cash", lang) }).check();
      await expect(page.getByTestId("cash-fee")).toHaveText(formatMoney(500, lang));
      await expect(total).toHaveText(formatMoney(7_750 + tripoliFee + 500, lang));
      await expect(page.getByTestId("gateway-fieldset")).toBeHidden();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("radio", { name: shop("checkout.cash.online", lang) }).check();
      await expect(page.getByTestId("cash-fee-line")).toHaveCount(0);
      await expect(total).toHaveText(formatMoney(7_750 + tripoliFee, lang));

      await page.getByRole("radio", { name: shop("checkout.cash.cash", lang) }).check();
      await page.getByRole("button", { name: shop("checkout.cash.submitCash", lang) }).click();
      await expect(page).toHaveURL(/\/orders\/[^/?]+$/);
    } finally {
      await cashSettings(false);
    }
  });
}

/** What the merchant's home shows as cash collected today, in minor units (it is written with two decimals). */
async function cashCollectedToday(cookie: string): Promise<number> {
  const shown = textOf(
    await getPage(`${stack().shopUrl}/admin?period=today`, cookie),
    '[data-testid="figure-collected"]',
  );
  if (!shown) throw new Error("the home shows no cash collected");
  return Number(shown.replace(/\D/g, ""));
}

test("a cash order's whole path without JavaScript: placed with its units held and no call to the service, then confirmed, packed, out, delivered and collected, each once; the home's cash collected grows by its total once", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const { slug, id: productId } = await newProduct();
  await database((pool) => pool.query(`update products set stock = 5 where id = $1`, [productId]));
  await emulator.fault(request, { route: "token", kind: "status", status: 503 }); // any call would meet it
  const account = { email: `cash-${crypto.randomUUID().slice(0, 8)}@medina.example`, password: "a-cash-password-1" };
  await createAdmin(account.email, account.password);
  const admin = await adminCookie(base, account.email, account.password);
  await cashSettings(true, 0);
  try {
    const before = await cashCollectedToday(admin);
    const phone = "0925550401";
    const placed = await placeCashOrder(base, { slug, quantity: 2, details: { full_name: "Salem Ali", phone } });
    const [order] = await ordersOf(phone);
    expect(order).toMatchObject({ status: "placed", payment_method: "cash" });
    const customerPage = async () => getPage(new URL(placed.orderPath, base).href, placed.cookie);
    expect(textOf(await customerPage(), "h1")).toBe(shop("order.cash.waiting_call.title"));
    // Its 2 units are held: the shop offers the other 3 (the stock itself is untouched until the merchant confirms).
    expect(await getPage(`${base}/products/${slug}`)).toContain("Only 3 left");
    expect(await emulator.payments(request)).toEqual([]);

    const orderPage = `${base}/admin/orders/${order!.id}`;
    // Each form as the page offers it, posted twice: a double click, or the same page open in a second tab.
    const post = async (name: string, value: string, more: [string, string][] = []) => {
      const fields = adminForm(await getPage(orderPage, admin), name, value);
      for (let time = 0; time < 2; time++) {
        const answer = await postForm(orderPage, [...fields, ...more], admin);
        expect(answer.status, `${name}=${value}`).toBeLessThan(400);
      }
    };
    const stored = async () =>
      database(
        async (pool) =>
          (
            await pool.query<{ status: string; fulfilment: string | null; collected_minor: number | null }>(
              `select status, fulfilment, collected_minor from orders where id = $1`,
              [order!.id],
            )
          ).rows[0],
      );
    const stock = async () =>
      database(
        async (pool) =>
          (await pool.query<{ stock: number }>(`select stock from products where id = $1`, [productId])).rows[0]!.stock,
      );

    await post("move", "confirm", [["note", "Called, she is home after 5"]]);
    expect(await stored()).toMatchObject({ status: "confirmed" });
    expect(await stock()).toBe(3); // sold
    for (const step of ["packed", "out_for_delivery", "delivered"]) {
      await post("step", step, [["notify", "on"]]);
      expect(await stored()).toMatchObject({ status: "confirmed", fulfilment: step });
    }
    await post("move", "collect", [["amount", (order!.amount_minor / 100).toFixed(2)]]);
    expect(await stored()).toMatchObject({
      status: "paid",
      fulfilment: "delivered",
      collected_minor: order!.amount_minor,
    });

    // Each once, though each form was posted twice; the stock sold once.
    const events = async () =>
      database(async (pool) =>
        (
          await pool.query<{ type: string }>(`select type from order_events where order_id = $1 order by id`, [
            order!.id,
          ])
        ).rows.map((row) => row.type),
      );
    const moves = (await events()).filter((type) =>
      ["cash_confirmed", "packed", "out_for_delivery", "delivered", "cash_collected"].includes(type),
    );
    expect(moves).toEqual(["cash_confirmed", "packed", "out_for_delivery", "delivered", "cash_collected"]);
    expect(await stock()).toBe(3);

    expect(await cashCollectedToday(admin)).toBe(before + order!.amount_minor);
    expect(textOf(await customerPage(), "h1")).toBe(shop("order.cash.paid.title"));
    expect(await emulator.payments(request)).toEqual([]);
  } finally {
    await cashSettings(false);
  }
});
