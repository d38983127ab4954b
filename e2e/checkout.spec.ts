import {
  addToCart,
  cartCount,
  currentLang,
  emulator,
  expect,
  fillCheckout,
  paymentPage,
  shop,
  stack,
  submitCheckout,
  test,
} from "./support";

/**
 * The main checkout. The tests tagged `@arabic` run in Arabic (the `ar` project in playwright.config.ts): the paid and
 * the cancelled order, the checkout's messages and the language switch, in Arabic's words and direction; the others
 * in English. Both go down the same code in either language, and the English project's other tests pay, cancel and
 * refuse checkouts in English.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

const onPaymentPage = () => new RegExp(`^${stack().emulatorUrl}/pay/sandbox/v1/user/payment/preview/`);
const paidHeading = () => shop("order.status.paid.title");

test(
  "(a) cart → checkout without a gateway → choose on the payment page → Pay → paid order, empty cart",
  { tag: "@arabic" },
  async ({ page, request }) => {
    const lang = currentLang();
    await addToCart(page, "olive-oil", 2);
    await addToCart(page, "saffron");
    await page.goto("/cart");
    await expect(page.locator("html")).toHaveAttribute("dir", lang === "ar" ? "rtl" : "ltr");
    await expect(page.getByTestId("cart-total")).toHaveText(/103[.,]75/);
    await page.getByRole("link", { name: shop("cart.toCheckout") }).click();

    await expect(page.getByRole("radio", { name: shop("checkout.chooseLater") })).toBeChecked();
    // Goods: delivered to Tripoli (10.00 LYD), with the phone the courier calls (e2e/support.ts).
    await fillCheckout(page, {});
    await submitCheckout(page);

    // The emulator's hosted page, on another origin and in the shop's language: choose a gateway there.
    await expect(page).toHaveURL(onPaymentPage());
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.getByText("113.75")).toBeVisible();
    await page.getByRole("radio", { name: "Sadad" }).check();
    await page.getByRole("button", { name: paymentPage().continue }).click();
    await page.getByRole("button", { name: paymentPage().pay, exact: true }).click();

    await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?outcome=reported$/);
    // The redirect alone is not proof of payment: the page says "confirmed" because the service's signed webhook
    // arrived before the customer did (e2e/webhooks.spec.ts covers the other orders of events).
    await expect(page.getByRole("heading", { name: paidHeading() })).toBeVisible();
    await expect(page.getByText(shop("order.status.paid.text"))).toBeVisible();
    expect(await cartCount(page)).toBe(0);

    const payments = await emulator.payments(request);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: "paid", amount: "113.75", lang });

    // Paying again for the same things is deliberate: "Buy these again" fills a new cart with the order's lines.
    await page.getByRole("button", { name: shop("order.buyAgain") }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(page.getByTestId("cart-total")).toHaveText(/103[.,]75/);
  },
);

test(
  "(b) Cancel on the payment page → cancelled order, cart still there",
  { tag: "@arabic" },
  async ({ page, request }) => {
    await addToCart(page, "ceramic-bowl", 3);
    await page.goto("/checkout");
    await fillCheckout(page, { gateway: shop("gateways.edfali") });
    await submitCheckout(page);

    await expect(page).toHaveURL(onPaymentPage());
    // A gateway was sent, so the selection page is skipped (docs/payment-service.md, "Creating a payment").
    await expect(page.getByRole("radio", { name: "Sadad" })).toHaveCount(0);
    await page.getByRole("button", { name: paymentPage().continue }).click();
    await page.getByRole("button", { name: paymentPage().cancel, exact: true }).click();

    await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?outcome=cancelled$/);
    await expect(page.getByRole("heading", { name: shop("order.status.cancelled.title") })).toBeVisible();
    expect(await cartCount(page)).toBe(3);
    await page.getByRole("link", { name: shop("order.backToCart") }).click();
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    expect((await emulator.payments(request))[0]).toMatchObject({ status: "cancelled" });
  },
);

test("(b2) Decline on the gateway page → the order says cancelled or declined, nothing charged", async ({
  page,
  request,
}) => {
  await addToCart(page, "saffron");
  await page.goto("/checkout");
  await fillCheckout(page, { gateway: shop("gateways.sadad") });
  await submitCheckout(page);
  await page.getByRole("button", { name: paymentPage().continue }).click();
  await page.getByRole("button", { name: paymentPage().decline, exact: true }).click();
  await expect(page.getByRole("heading", { name: shop("order.status.cancelled.title") })).toBeVisible();
  expect(await cartCount(page)).toBe(1);
  expect((await emulator.payments(request))[0]).toMatchObject({ status: "declined" });
});

test("(c) all customer fields and a gateway → the payment page goes straight to the gateway by itself", async ({
  page,
  request,
}) => {
  await addToCart(page, "mint-tea-set");
  await page.goto("/checkout");
  await fillCheckout(page, {
    full_name: "عائشة بن علي",
    email: "aisha@example.ly",
    phone: "+218 91-234-5678",
    gateway: shop("gateways.mobicash"),
  });
  await submitCheckout(page);

  await expect(page).toHaveURL(onPaymentPage());
  // No click: the summary continues by itself to the gateway page.
  await expect(page.getByRole("button", { name: paymentPage().pay, exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Mobicash").first()).toBeVisible();
  const [payment] = await emulator.payments(request);
  expect(payment).toMatchObject({
    payment_gateway: "mobicash",
    status: "pending",
    full_name: "عائشة بن علي",
    phone: "0912345678",
  });
  await page.getByRole("button", { name: paymentPage().pay, exact: true }).click();
  await expect(page.getByRole("heading", { name: paidHeading() })).toBeVisible();
});

test.describe("(d) with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the same checkout works as plain HTML forms", async ({ page, request }) => {
    await addToCart(page, "deglet-nour-dates", 2);
    expect(await cartCount(page)).toBe(2);

    await page.goto("/checkout");
    await fillCheckout(page, {});
    await submitCheckout(page);
    await expect(page).toHaveURL(onPaymentPage());
    await page.getByRole("radio", { name: "Yaser Pay" }).check();
    await page.getByRole("button", { name: paymentPage().continue }).click();
    await page.getByRole("button", { name: paymentPage().pay, exact: true }).click();

    await expect(page.getByRole("heading", { name: paidHeading() })).toBeVisible();
    expect(await cartCount(page)).toBe(0);
    expect(await emulator.payments(request)).toHaveLength(1);
  });
});

test(
  "invalid details stay on the checkout with specific messages and the input kept",
  { tag: "@arabic" },
  async ({ page, request }) => {
    await addToCart(page, "saffron");
    await page.goto("/checkout");
    await fillCheckout(page, { full_name: "Omar", email: "omar-at-example", phone: "12345" });
    await submitCheckout(page);

    const summary = page.getByTestId("checkout-error");
    await expect(summary).toContainText(shop("checkout.fixFields"));
    await expect(summary.getByRole("link", { name: shop("problems.emailInvalid") })).toBeVisible();
    await expect(summary.getByRole("link", { name: shop("problems.phoneInvalid") })).toBeVisible();
    await expect(summary).toBeFocused();
    await expect(page.getByLabel(shop("checkout.fullName"))).toHaveValue("Omar");
    await expect(page.getByLabel(shop("checkout.email"))).toHaveValue("omar-at-example");
    await expect(page.getByLabel(shop("checkout.email"))).toHaveAttribute("aria-invalid", "true");
    expect(await emulator.payments(request)).toHaveLength(0);
    expect(await cartCount(page)).toBe(1);
  },
);

test("the language switch remembers the choice", { tag: "@arabic" }, async ({ page }) => {
  const other = currentLang() === "ar" ? "en" : "ar";
  await page.goto("/");
  await page.getByRole("button", { name: shop("layout.switchLanguageLabel") }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", other);
  await page.goto("/cart");
  await expect(page.getByRole("heading", { name: shop("cart.emptyTitle", other) })).toBeVisible();
});
