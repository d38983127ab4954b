import { SHOWN_PRICES_FIELD } from "../lib/checkout/shown-prices";
import { formatMoney } from "../lib/money";
import { addToCart, findForm, isPaymentPage, loadCheckoutForm, submitCheckout, textOf } from "../testing/no-js-shop";
import {
  addToCart as addInBrowser,
  chooseCity,
  database,
  emulator,
  expect,
  fillCheckout,
  shop,
  stack,
  submitCheckout as submitInBrowser,
  test,
} from "./support";

/**
 * The customer pays what the checkout form showed: a price or a delivery fee raised between loading the form and
 * submitting it is refused with the new amounts, and the page shows them; submitted again, the checkout goes through.
 * Driven as a browser without JavaScript drives it (testing/no-js-shop.ts), against the worker's own shop.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

test("a price and a delivery fee raised after the form was loaded are refused with both changes, nothing stored; the second submit pays the new total", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const slug = `pressed-oil-${crypto.randomUUID().slice(0, 8)}`;
  const [product, benghazi] = await database(async (pool) => {
    const inserted = await pool.query<{ id: string }>(
      `insert into products (slug, name_en, name_ar, price_minor) values ($1, 'Pressed olive oil', 'زيت زيتون معصور', 1875) returning id`,
      [slug],
    );
    const zone = await pool.query<{ id: string; fee_minor: number }>(
      `select id, fee_minor from delivery_zones where name_en = 'Benghazi'`,
    );
    return [inserted.rows[0]!.id, zone.rows[0]!] as const;
  });
  const linesOf = () =>
    database(async (pool) => (await pool.query(`select 1 from order_lines where product_id = $1`, [product])).rowCount);

  try {
    const cookie = await addToCart(base, { slug });
    const { hidden, delivery } = await loadCheckoutForm(base, cookie);
    const details = { ...delivery, delivery_zone: benghazi.id, full_name: "Salem Fathi", payment_gateway: "" };
    // The merchant raises the price and Benghazi's fee while the customer fills the form in.
    await database(async (pool) => {
      await pool.query(`update products set price_minor = 9900 where id = $1`, [product]);
      await pool.query(`update delivery_zones set fee_minor = 5000 where id = $1`, [benghazi.id]);
    });

    const refused = await submitCheckout(base, cookie, hidden, details);
    expect(refused.status).toBe(200);
    expect(refused.html).toContain(
      `The price of Pressed olive oil changed from ${formatMoney(1_875, "en")} to ${formatMoney(9_900, "en")}.`,
    );
    expect(refused.html).toContain(
      `Delivery to Benghazi changed from ${formatMoney(benghazi.fee_minor, "en")} to ${formatMoney(5_000, "en")}.`,
    );
    expect(await linesOf()).toBe(0);
    expect(await emulator.payments(request)).toEqual([]);
    // The page that answered shows the new price and Benghazi's new fee, and the total they make, which is what the
    // customer pays next; it posts them, and keeps what the customer typed.
    expect(textOf(refused.html, '[data-testid="delivery-fee"]')).toBe(formatMoney(5_000, "en"));
    expect(textOf(refused.html, '[data-testid="order-total"]')).toBe(formatMoney(14_900, "en"));
    expect(refused.html).toContain('value="Salem Fathi"');
    const form = findForm(refused.html, "full_name")!;
    const shown = JSON.parse(form.hidden.find(([name]) => name === SHOWN_PRICES_FIELD)![1]);
    expect(shown.lines).toEqual([[Number(product), 1, 9_900]]);
    expect(shown.fees).toContainEqual([Number(benghazi.id), 5_000]);

    // Submitted again from that page, the customer pays the total it shows.
    const again = await submitCheckout(base, refused.cookie, form.hidden, details);
    expect(again.status).toBe(303);
    expect(isPaymentPage(again.location, stack().emulatorUrl)).toBe(true);
    expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["149.00"]);
    expect(await linesOf()).toBe(1);
  } finally {
    await database(async (pool) => {
      await pool.query(`update delivery_zones set fee_minor = $1 where id = $2`, [benghazi.fee_minor, benghazi.id]);
      await pool.query(`update products set visible = false where id = $1`, [product]);
    });
  }
});

test("a checkout posted without the prices its form showed, or with malformed ones, is refused with a message, nothing stored", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const cookie = await addToCart(base, { slug: "saffron" });
  const { hidden, delivery } = await loadCheckoutForm(base, cookie);
  const without = hidden.filter(([name]) => name !== SHOWN_PRICES_FIELD);
  expect(without).toHaveLength(hidden.length - 1);
  for (const forged of [
    without,
    [...without, [SHOWN_PRICES_FIELD, '{"lines":[[1,1,-5]],"fees":[]}']] as [string, string][],
  ]) {
    const answer = await submitCheckout(base, cookie, forged, { ...delivery, full_name: "Salem Fathi" });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain("This form did not say which prices it showed you, so nothing was done.");
  }
  expect(await emulator.payments(request)).toEqual([]);
});

test("with JavaScript, the refused checkout's summary shows the new total for the city chosen, and submitting again pays it", async ({
  page,
  request,
}) => {
  const slug = `pressed-oil-${crypto.randomUUID().slice(0, 8)}`;
  const product = await database(
    async (pool) =>
      (
        await pool.query<{ id: string }>(
          `insert into products (slug, name_en, name_ar, price_minor) values ($1, 'Pressed olive oil', 'زيت زيتون معصور', 1875) returning id`,
          [slug],
        )
      ).rows[0]!.id,
  );
  try {
    await addInBrowser(page, slug);
    await page.goto("/checkout");
    await fillCheckout(page, { full_name: "Salem Fathi" }); // delivered to Tripoli (10.00)
    await expect(page.getByTestId("order-total")).toHaveText(formatMoney(2_875, "en"));
    // The summary follows the city as it is chosen: Benghazi's fee on the delivery's line, and in the total.
    await chooseCity(page, "Benghazi");
    await expect(page.getByTestId("delivery-line")).toContainText(
      shop("checkout.deliveryLine").replace("{city}", "Benghazi"),
    );
    await expect(page.getByTestId("delivery-fee")).toHaveText(formatMoney(3_500, "en"));
    await expect(page.getByTestId("order-total")).toHaveText(formatMoney(5_375, "en"));
    await database((pool) => pool.query(`update products set price_minor = 9900 where id = $1`, [product]));

    await submitInBrowser(page);
    await expect(page.getByTestId("checkout-error")).toContainText(
      `The price of Pressed olive oil changed from ${formatMoney(1_875, "en")} to ${formatMoney(9_900, "en")}.`,
    );
    await expect(page.getByTestId("order-total")).toHaveText(formatMoney(13_400, "en"));
    expect(await emulator.payments(request)).toEqual([]);

    await submitInBrowser(page);
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["134.00"]);
  } finally {
    await database((pool) => pool.query(`update products set visible = false where id = $1`, [product]));
  }
});
