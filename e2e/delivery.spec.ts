import { formatMoney } from "../lib/money";
import {
  addToCart,
  chooseCity,
  database,
  emulator,
  expect,
  fillCheckout,
  paymentPage,
  shop,
  stack,
  test,
  type Lang,
} from "./support";

/**
 * Delivery at the checkout (issue of delivery): the city's fee priced on the server into the amount the service is
 * asked for, pickup without a fee, a digital cart that asks for no address, the required fields refused with their
 * messages and the input kept, and the delivery as part of the checkout (another city, another payment). The rules
 * are tested on the database in lib/checkout/form.test.ts and lib/checkout/place-order.test.ts; these are the flows.
 * The seeded fees (drizzle/0014_delivery.sql): Tripoli 10.00 LYD, Benghazi 35.00 LYD.
 */

const onPaymentPage = () => new RegExp(`^${stack().emulatorUrl}/pay/`);

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

test.describe("in Arabic, with JavaScript", () => {
  test.use({ locale: "ar-LY" });
  const lang: Lang = "ar";
  const t = (key: string) => shop(key, lang);

  test("a delivery to Benghazi: refused without phone and address, then charged lines + Benghazi's fee; another city is another payment, the same details resume the first", async ({
    page,
    request,
  }) => {
    await addToCart(page, "olive-oil", 1, lang); // 42.50
    await page.goto("/checkout");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");

    // Name, e-mail, city and landmark, but neither the phone nor the address: both refused, everything kept.
    await page.getByLabel(t("checkout.fullName")).fill("عائشة بن علي");
    await page.getByLabel(t("checkout.email")).fill("aisha@example.ly");
    await chooseCity(page, "بنغازي", lang);
    await page.getByLabel(t("checkout.landmark")).fill("خلف الصيدلية");
    // The summary follows the city: its fee on a line of its own, and in the total.
    await expect(page.getByTestId("delivery-line")).toContainText(
      t("checkout.deliveryLine").replace("{city}", "بنغازي"),
    );
    await expect(page.getByTestId("delivery-fee")).toHaveText(formatMoney(3500, lang));
    await expect(page.getByTestId("order-total")).toHaveText(formatMoney(7750, lang));
    await page.getByRole("button", { name: t("checkout.submit") }).click();
    const summary = page.getByTestId("checkout-error");
    await expect(summary.getByRole("link", { name: t("problems.phoneRequired") })).toBeVisible();
    await expect(summary.getByRole("link", { name: t("problems.addressMissing") })).toBeVisible();
    await expect(page.getByLabel(t("checkout.fullName"))).toHaveValue("عائشة بن علي");
    await expect(page.getByLabel(t("checkout.landmark"))).toHaveValue("خلف الصيدلية");
    await expect(page.getByLabel(t("checkout.city"))).not.toHaveValue("");
    await expect(page.getByLabel(t("checkout.address"))).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("delivery-fee")).toHaveText(formatMoney(3500, lang));
    expect(await emulator.payments(request)).toEqual([]);

    // With them: the service is asked for 42.50 + 35.00.
    const details = {
      full_name: "عائشة بن علي",
      email: "aisha@example.ly",
      phone: "091 234 5678",
      delivery: { city: "بنغازي", address: "الفويهات، شارع البندقية", landmark: "خلف الصيدلية" },
    };
    await fillCheckout(page, details, lang);
    await page.getByRole("button", { name: t("checkout.submit") }).click();
    await expect(page).toHaveURL(onPaymentPage());
    const first = page.url();
    expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["77.50"]);

    // Back, and Tripoli instead: another payment, at Tripoli's fee.
    await page.goto("/checkout");
    await fillCheckout(page, { ...details, delivery: { ...details.delivery, city: "طرابلس" } }, lang);
    await page.getByRole("button", { name: t("checkout.submit") }).click();
    await expect(page).toHaveURL(onPaymentPage());
    expect(page.url()).not.toBe(first);
    expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["77.50", "52.50"]);

    // Back, and Benghazi with the same details again: the first payment, resumed.
    await page.goto("/checkout");
    await fillCheckout(page, details, lang);
    await page.getByRole("button", { name: t("checkout.submit") }).click();
    await expect(page).toHaveURL(first);
    expect(await emulator.payments(request)).toHaveLength(2);

    // Paid: the order page shows the fee's own line.
    await page.getByRole("radio", { name: "Sadad" }).check();
    await page.getByRole("button", { name: paymentPage(lang).continue }).click();
    await page.getByRole("button", { name: paymentPage(lang).pay, exact: true }).click();
    await expect(page.getByRole("heading", { name: t("order.status.paid.title") })).toBeVisible();
    await expect(page.getByTestId("delivery-line")).toContainText("بنغازي");
    await expect(page.getByTestId("delivery-fee")).toHaveText(formatMoney(3500, lang));
    await expect(page.getByTestId("order-total")).toHaveText(formatMoney(7750, lang));
  });
});

test.describe("in English, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  const lang: Lang = "en";
  const t = (key: string) => shop(key, lang);

  test("a digital gift card asks for no address but a way to reach the customer; with goods, pickup costs no fee", async ({
    page,
    request,
  }) => {
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
      await addToCart(page, "gift-card", 1, lang); // 50.00
      await page.goto("/checkout");
      await expect(page.getByTestId("delivery-fieldset")).toHaveCount(0);
      await expect(page.locator("[name=delivery_address]")).toHaveCount(0);
      await page.getByRole("button", { name: t("checkout.submit") }).click();
      await expect(page.getByTestId("checkout-error")).toContainText(t("problems.contactRequired"));
      await page.getByLabel(t("checkout.phone")).fill("0912345678");
      await page.getByRole("button", { name: t("checkout.submit") }).click();
      await expect(page).toHaveURL(onPaymentPage());
      expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["50.00"]);

      // With saffron too there are goods: delivery or pickup is asked (every field there without JavaScript). Pickup,
      // shown with its address and hours, adds no fee.
      await addToCart(page, "saffron", 1, lang); // 18.75
      await page.goto("/checkout");
      await expect(page.getByText(`${pickup.en} — ${pickup.hours}`)).toBeVisible();
      await expect(page.getByLabel(t("checkout.address"))).toBeVisible();
      await fillCheckout(page, { phone: "0912345678", delivery: "pickup" }, lang);
      await page.getByRole("button", { name: t("checkout.submit") }).click();
      await expect(page).toHaveURL(onPaymentPage());
      expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["50.00", "68.75"]);
      const { rows } = await database((pool) =>
        pool.query("select delivery_method, delivery_fee_minor from orders where payment_token = $1", [
          page.url().split("/").pop(),
        ]),
      );
      expect(rows).toEqual([{ delivery_method: "pickup", delivery_fee_minor: 0 }]);
    } finally {
      await database((pool) => pool.query("update store_pickup set enabled = false where id = 1"));
    }
  });
});
