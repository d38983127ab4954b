import { formatMoney } from "../lib/money";
import {
  addToCart,
  browse,
  findForm,
  getPage,
  isPaymentPage,
  nodeText,
  parseHtml,
  payAtEmulator,
  returnToShop,
  select,
  submitCheckout,
  textOf,
  textsOf,
  valueOf,
  type CheckoutDetails,
} from "../testing/no-js-shop";
import { database, emulator, expect, shop, stack, test, type Lang } from "./support";

/**
 * Delivery at the checkout (issue of delivery): the city's fee priced on the server into the amount the service is
 * asked for, pickup without a fee, a digital cart that asks for no address, the required fields refused with their
 * messages and the input kept, and the delivery as part of the checkout (another city, another payment). The rules
 * are tested on the database in lib/checkout/form.test.ts and lib/checkout/place-order.test.ts; these are the flows,
 * driven as a browser without JavaScript drives them (testing/no-js-shop.ts), where the form shows every field. The
 * summary following the city as it is chosen, with JavaScript, is e2e/prices.spec.ts's.
 * The seeded fees (drizzle/0014_delivery.sql): Tripoli 10.00 LYD, Benghazi 35.00 LYD.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/** The value of the checkout's city option whose text starts with `city` (each option also shows its fee). */
function cityValue(html: string, city: string): string {
  const option = select('select[name="delivery_zone"] option', parseHtml(html)).find((each) =>
    nodeText(each).trim().startsWith(city),
  );
  if (!option?.attribs.value) throw new Error(`the checkout offers no city "${city}"`);
  return option.attribs.value;
}

/** The checkout form's hidden inputs, as the page at hand shows them (its prices, its action). */
const hiddenOf = (html: string) => findForm(html, "full_name")!.hidden;

test("in Arabic, a delivery to Benghazi: refused without phone and address, then charged lines + Benghazi's fee; another city is another payment, the same details resume the first", async ({
  request,
}) => {
  const lang: Lang = "ar";
  const t = (key: string) => shop(key, lang);
  const base = stack().shopUrl;
  const amounts = async () => (await emulator.payments(request)).map((payment) => payment.amount);
  const cookie = await addToCart(base, { slug: "olive-oil", lang }); // 42.50
  const form = await getPage(`${base}/checkout`, cookie, 200, lang);
  expect(select("html", parseHtml(form))[0]!.attribs.dir).toBe("rtl");
  const benghazi = cityValue(form, "بنغازي");

  // Name, e-mail, city and landmark, but neither the phone nor the address: both refused, everything kept, and the
  // summary has Benghazi's fee on a line of its own, and in the total.
  const details: CheckoutDetails = {
    full_name: "عائشة بن علي",
    email: "aisha@example.ly",
    delivery_method: "delivery",
    delivery_zone: benghazi,
    delivery_landmark: "خلف الصيدلية",
  };
  const refused = await submitCheckout(base, cookie, hiddenOf(form), details, { lang });
  expect(refused.status).toBe(200);
  const problems = textsOf(refused.html, '[data-testid="checkout-error"] a');
  for (const problem of [t("problems.phoneRequired"), t("problems.addressMissing")])
    expect(
      problems.some((link) => link.includes(problem)),
      `"${problem}" among ${problems.join(" | ")}`,
    ).toBe(true);
  expect(valueOf(refused.html, "full_name")).toBe("عائشة بن علي");
  expect(valueOf(refused.html, "delivery_landmark")).toBe("خلف الصيدلية");
  expect(select('select[name="delivery_zone"] option[selected]', parseHtml(refused.html))[0]?.attribs.value).toBe(
    benghazi,
  );
  expect(select('[name="delivery_address"]', parseHtml(refused.html))[0]?.attribs["aria-invalid"]).toBe("true");
  expect(textOf(refused.html, '[data-testid="delivery-line"] dt')).toContain(
    t("checkout.deliveryLine").replace("{city}", "بنغازي"),
  );
  expect(textOf(refused.html, '[data-testid="delivery-fee"]')).toBe(formatMoney(3500, lang));
  expect(textOf(refused.html, '[data-testid="order-total"]')).toBe(formatMoney(7750, lang));
  expect(await amounts()).toEqual([]);

  // With them: the service is asked for 42.50 + 35.00.
  const complete = { ...details, phone: "091 234 5678", delivery_address: "الفويهات، شارع البندقية" };
  const first = await submitCheckout(base, refused.cookie, hiddenOf(refused.html), complete, { lang });
  expect(isPaymentPage(first.location, stack().emulatorUrl)).toBe(true);
  expect(await amounts()).toEqual(["77.50"]);

  // Back to the checkout, and Tripoli instead: another payment, at Tripoli's fee.
  const again = await getPage(`${base}/checkout`, first.cookie, 200, lang);
  const tripoli = { ...complete, delivery_zone: cityValue(again, "طرابلس") };
  const second = await submitCheckout(base, first.cookie, hiddenOf(again), tripoli, { lang });
  expect(isPaymentPage(second.location, stack().emulatorUrl)).toBe(true);
  expect(second.location).not.toBe(first.location);
  expect(await amounts()).toEqual(["77.50", "52.50"]);

  // Back, and Benghazi with the same details again: the first payment, resumed.
  const third = await getPage(`${base}/checkout`, second.cookie, 200, lang);
  const resumed = await submitCheckout(base, second.cookie, hiddenOf(third), complete, { lang });
  expect(resumed.location).toBe(first.location);
  expect(await amounts()).toHaveLength(2);

  // Paid: once the service's webhook has confirmed it, the order page shows the fee's own line.
  const back = await returnToShop(await payAtEmulator(first.location!, "sadad"), resumed.cookie, lang);
  const orderUrl = new URL(back.orderPath, base).href;
  let order = "";
  await expect
    .poll(async () => textsOf((order = (await browse(orderUrl, back.cookie, lang)).html), "h1"))
    .toContain(t("order.status.paid.title"));
  expect(textOf(order, '[data-testid="delivery-line"]')).toContain("بنغازي");
  expect(textOf(order, '[data-testid="delivery-fee"]')).toBe(formatMoney(3500, lang));
  expect(textOf(order, '[data-testid="order-total"]')).toBe(formatMoney(7750, lang));
});

test("a digital gift card asks for no address but a way to reach the customer; with goods, pickup costs no fee", async ({
  request,
}) => {
  const t = (key: string) => shop(key, "en");
  const base = stack().shopUrl;
  const amounts = async () => (await emulator.payments(request)).map((payment) => payment.amount);
  const pickup = { en: "Souq Al-Turk 4, Tripoli old city", hours: "Sat–Thu 10:00–20:00" };
  await database((pool) =>
    pool.query(
      `update store_pickup set enabled = true, address_en = $1, address_ar = 'سوق الترك 4', hours_en = $2,
         hours_ar = 'السبت–الخميس 10:00–20:00' where id = 1`,
      [pickup.en, pickup.hours],
    ),
  );
  try {
    // Digital only: no delivery asked, and nothing to reach the customer by is refused.
    const cookie = await addToCart(base, { slug: "gift-card" }); // 50.00
    const digital = await getPage(`${base}/checkout`, cookie);
    expect(select('[data-testid="delivery-fieldset"], [name="delivery_address"]', parseHtml(digital))).toEqual([]);
    const refused = await submitCheckout(base, cookie, hiddenOf(digital), {});
    expect(refused.status).toBe(200);
    expect(textOf(refused.html, '[data-testid="checkout-error"]')).toContain(t("problems.contactRequired"));
    const paying = await submitCheckout(base, refused.cookie, hiddenOf(refused.html), { phone: "0912345678" });
    expect(isPaymentPage(paying.location, stack().emulatorUrl)).toBe(true);
    expect(await amounts()).toEqual(["50.00"]);

    // With saffron too there are goods: delivery or pickup is asked (every field there without JavaScript). Pickup,
    // shown with its address and hours, adds no fee.
    const withGoods = await addToCart(base, { slug: "saffron", cookie: paying.cookie }); // 18.75
    const goods = await getPage(`${base}/checkout`, withGoods);
    expect(textOf(goods, '[data-testid="delivery-fieldset"]')).toContain(`${pickup.en} — ${pickup.hours}`);
    expect(select('[name="delivery_address"]', parseHtml(goods))).toHaveLength(1);
    const pickedUp = await submitCheckout(base, withGoods, hiddenOf(goods), {
      phone: "0912345678",
      delivery_method: "pickup",
    });
    expect(isPaymentPage(pickedUp.location, stack().emulatorUrl)).toBe(true);
    expect(await amounts()).toEqual(["50.00", "68.75"]);
    const { rows } = await database((pool) =>
      pool.query("select delivery_method, delivery_fee_minor from orders where payment_token = $1", [
        pickedUp.location!.split("/").pop(),
      ]),
    );
    expect(rows).toEqual([{ delivery_method: "pickup", delivery_fee_minor: 0 }]);
  } finally {
    await database((pool) => pool.query("update store_pickup set enabled = false where id = 1"));
  }
});
