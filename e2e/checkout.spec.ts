import { expect, test } from "@playwright/test";
import { EMULATOR_URL } from "../playwright.config";
import { addToCart, cartCount, emulator, fillCheckout } from "./support";

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

test("(a) cart → checkout without a gateway → choose on the payment page → Pay → paid order, empty cart", async ({ page, request }) => {
  await addToCart(page, "olive-oil", 2);
  await addToCart(page, "saffron");
  await page.goto("/cart");
  await expect(page.getByTestId("cart-total")).toHaveText(/103\.75/);
  await page.getByRole("link", { name: "Go to checkout" }).click();

  await expect(page.getByRole("radio", { name: "Choose on the payment page" })).toBeChecked();
  await page.getByRole("button", { name: "Continue to payment" }).click();

  // The emulator's hosted page, on another origin: choose a gateway there.
  await expect(page).toHaveURL(new RegExp(`^${EMULATOR_URL}/pay/sandbox/v1/user/payment/preview/`));
  await expect(page.getByText("103.75")).toBeVisible();
  await page.getByRole("radio", { name: "Sadad" }).check();
  await page.getByRole("button", { name: /Continue/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();

  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?outcome=paid$/);
  await expect(page.getByRole("heading", { name: /your payment was successful/i })).toBeVisible();
  expect(await cartCount(page)).toBe(0);

  const payments = await emulator.payments(request);
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({ status: "paid", amount: "103.75" });
});

test("(b) Cancel on the payment page → cancelled order, cart still there", async ({ page, request }) => {
  await addToCart(page, "ceramic-bowl", 3);
  await page.goto("/checkout");
  await fillCheckout(page, { gateway: "Edfali" });
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveURL(new RegExp(`^${EMULATOR_URL}/`));
  // A gateway was sent, so the selection page is skipped (spec §4.2 rule 6).
  await expect(page.getByRole("radio", { name: "Sadad" })).toHaveCount(0);
  await page.getByRole("button", { name: /Continue/ }).click();
  await page.getByRole("button", { name: "Cancel", exact: true }).click();

  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?outcome=cancelled$/);
  await expect(page.getByRole("heading", { name: "Your payment was cancelled" })).toBeVisible();
  expect(await cartCount(page)).toBe(3);
  await page.getByRole("link", { name: "Back to your cart" }).click();
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  expect((await emulator.payments(request))[0]).toMatchObject({ status: "cancelled" });
});

test("(c) all customer fields and a gateway → the payment page goes straight to the gateway by itself", async ({ page, request }) => {
  await addToCart(page, "mint-tea-set");
  await page.goto("/checkout");
  await fillCheckout(page, { full_name: "عائشة بن علي", email: "aisha@example.ly", phone: "+218 91-234-5678", gateway: "Mobicash" });
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveURL(new RegExp(`^${EMULATOR_URL}/`));
  // No click: the summary continues by itself to the gateway page.
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Mobicash").first()).toBeVisible();
  const [payment] = await emulator.payments(request);
  expect(payment).toMatchObject({ payment_gateway: "mobicash", status: "pending" });
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: /your payment was successful/i })).toBeVisible();
});

test.describe("(d) with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the same checkout works as plain HTML forms", async ({ page, request }) => {
    await page.goto("/products/deglet-nour-dates");
    await page.getByLabel("Quantity").fill("2");
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByText("Added to your cart.")).toBeVisible();
    expect(await cartCount(page)).toBe(2);

    await page.goto("/checkout");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(new RegExp(`^${EMULATOR_URL}/`));
    await page.getByRole("radio", { name: "Yaser Pay" }).check();
    await page.getByRole("button", { name: /Continue/ }).click();
    await page.getByRole("button", { name: "Pay", exact: true }).click();

    await expect(page.getByRole("heading", { name: /your payment was successful/i })).toBeVisible();
    expect(await cartCount(page)).toBe(0);
    expect(await emulator.payments(request)).toHaveLength(1);
  });
});

test("invalid details stay on the checkout with specific messages and the input kept", async ({ page, request }) => {
  await addToCart(page, "saffron");
  await page.goto("/checkout");
  await fillCheckout(page, { full_name: "Omar", email: "omar-at-example", phone: "12345" });
  await page.getByRole("button", { name: "Continue to payment" }).click();

  const summary = page.getByTestId("checkout-error");
  await expect(summary).toContainText("Please correct the highlighted fields.");
  await expect(summary.getByRole("link", { name: "Enter an e-mail address like name@example.ly." })).toBeVisible();
  await expect(page.getByLabel(/Full name/)).toHaveValue("Omar");
  await expect(page.getByLabel(/E-mail/)).toHaveValue("omar-at-example");
  await expect(page.getByLabel(/E-mail/)).toHaveAttribute("aria-invalid", "true");
  expect(await emulator.payments(request)).toHaveLength(0);
  expect(await cartCount(page)).toBe(1);
});
