import {
  addToCart as addByForm,
  type CheckoutDetails,
  findForm,
  getPage,
  hrefOf,
  isPaymentPage,
  loadCheckoutForm,
  postForm,
  submitCheckout as postCheckout,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import { addToCart, emulator, expect, fillCheckout, shop, stack, submitCheckout, test } from "./support";

/** Bad input from the browser — forged forms, markup in fields — is refused with a message or rendered inert. */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/**
 * Posts the saffron page's add-to-cart form as a script or a hand-made request would (testing/no-js-shop.ts): no
 * browser validation in the way, `productId` forged when given.
 * @returns the message the page answers with, and the number in its cart badge.
 */
async function forgeAddToCart(quantity: string, { productId = undefined as string | undefined, cookie = "" } = {}) {
  const pageUrl = `${stack().shopUrl}/products/saffron`;
  const form = findForm(await getPage(pageUrl, cookie), "quantity")!;
  const hidden = form.hidden.map(([name, value]): [string, string] => [
    name,
    name === "productId" && productId !== undefined ? productId : value,
  ]);
  const answer = await postForm(pageUrl, [...hidden, ["quantity", quantity]], cookie);
  expect(answer.status).toBe(200);
  return {
    message: textOf(answer.html, "form p[aria-live]")?.trim(),
    cartCount: Number(textOf(answer.html, '[data-testid="cart-count"]')),
  };
}

test.describe("add to cart refuses forged forms with a specific message and leaves the cart alone", () => {
  // The product id as the page has it (undefined), or forged.
  const cases: [name: string, productId: string | undefined, quantity: string, message: string][] = [
    ["an unknown product", "999999", "1", "That product does not exist."],
    ["a product id that is not one", "saffron", "1", "That product does not exist."],
    ["a zero quantity", undefined, "0", "The quantity must be at least 1."],
    ["a negative quantity", undefined, "-3", "The quantity must be at least 1."],
    ["a fractional quantity", undefined, "1.5", "Quantities are whole numbers."],
    ["a huge quantity", undefined, "1000000", "You can buy at most 20 of one product."],
    ["a quantity that is not a number", undefined, "lots", "Enter a quantity as a number."],
  ];
  for (const [name, productId, quantity, message] of cases) {
    test(name, async () => {
      expect(await forgeAddToCart(quantity, { productId })).toEqual({ message, cartCount: 0 });
    });
  }

  test("more than 20 of one product across several adds", async () => {
    const cookie = await addByForm(stack().shopUrl, { slug: "saffron", quantity: 15 });
    expect(await forgeAddToCart("6", { cookie })).toEqual({
      message: "You already have 15 in your cart; at most 20 fit in one order.",
      cartCount: 15,
    });
  });
});

test("a price slipped into the form is ignored: the checkout charges the catalogue price", async ({ request }) => {
  const pageUrl = `${stack().shopUrl}/products/woven-kilim`;
  const form = findForm(await getPage(pageUrl), "quantity")!;
  const added = await postForm(pageUrl, [
    ...form.hidden,
    ["quantity", "1"],
    ["price", "1"],
    ["priceMinor", "1"],
    ["amount", "0.01"],
  ]);
  expect(textOf(added.html, "form p[aria-live]")).toContain(shop("product.added"));
  const { hidden, delivery } = await loadCheckoutForm(stack().shopUrl, added.cookie);
  const answer = await postCheckout(stack().shopUrl, added.cookie, hidden, { ...delivery, full_name: "Salma" });
  expect(isPaymentPage(answer.location, stack().emulatorUrl)).toBe(true);
  // The kilim's 450.00 and Tripoli's delivery fee (10.00), both from the server.
  expect((await emulator.payments(request))[0]).toMatchObject({ amount: "460.00" });
});

test("markup and script in every field stay inert, in the shop and on the payment page", async ({ page, request }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const evil = `<img src=x onerror="alert('xss')"><script>alert('xss')</script>`;
  await addToCart(page, "saffron");
  await page.goto("/checkout");
  // First with an invalid e-mail and phone carrying markup too: the form comes back with every value as text.
  await fillCheckout(page, { full_name: evil, email: `${evil}@example.ly`, phone: `<b>091</b>` });
  await submitCheckout(page);
  await expect(page.getByTestId("checkout-error")).toBeVisible();
  await expect(page.getByLabel(/Full name/)).toHaveValue(evil);
  expect(await page.locator("main img[src=x], main script:not([src])").count()).toBe(0);

  // Then valid details with the markup name: the emulator's payment page shows it as text.
  await fillCheckout(page, { full_name: evil, email: "ok@example.ly", phone: "0912345678", gateway: "Sadad" });
  await submitCheckout(page);
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  await expect(page.getByText("<img src=x", { exact: false }).first()).toBeVisible();
  expect(await page.locator("img[src=x]").count()).toBe(0);
  expect((await emulator.payments(request))[0]).toMatchObject({ full_name: evil });
  expect(dialogs).toEqual([]);
});

test.describe("an oversized checkout form, posted as a browser without JavaScript posts it", () => {
  const forgeries: [name: string, fields: [string, string][], details: CheckoutDetails][] = [
    ["a name over 1 MB", [], { full_name: "x".repeat(1_100_000) }],
    ["20,000 extra fields", Array.from({ length: 20_000 }, (_, i): [string, string] => [`f${i}`, "1"]), {}],
  ];
  for (const [name, fields, details] of forgeries) {
    test(`${name}: a page that says so, not a bare "Internal Server Error"; nothing charged, the cart kept`, async ({
      request,
    }) => {
      const { shopUrl } = stack();
      const cookie = await addByForm(shopUrl, { slug: "saffron", quantity: 2 });
      const { hidden, delivery } = await loadCheckoutForm(shopUrl, cookie);
      const answer = await postCheckout(shopUrl, cookie, [...hidden, ...fields], { ...delivery, ...details });
      expect(answer.status).toBe(413);
      expect(textsOf(answer.html, "h1")).toContain(shop("formTooLarge.title"));
      expect(new URL(hrefOf(answer.html, shop("formTooLarge.back")), shopUrl).pathname).toBe("/checkout");
      expect(await emulator.payments(request)).toEqual([]);
      const checkout = await getPage(`${shopUrl}/checkout`, answer.cookie);
      expect(Number(textOf(checkout, '[data-testid="cart-count"]'))).toBe(2);
    });
  }
});
