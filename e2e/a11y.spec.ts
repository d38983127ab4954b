import type { Page } from "@playwright/test";
import {
  addToCart,
  createAdmin,
  database,
  emulator,
  expect,
  fillCheckout,
  type Lang,
  seriousViolations,
  shop,
  signInAsAdmin,
  stack,
  test,
} from "./support";

/**
 * axe on every page of the shop (and the emulator's payment pages), in both languages on a desktop's screen and in
 * English on a phone's too: no serious or critical violation of WCAG 2.1 A/AA. The checkout is also driven by keyboard
 * alone.
 */

const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;

/**
 * axe on the page as it is, at each screen size in turn (the layout changes with the width, the page does not need
 * loading again): no serious or critical violation. At the phone's width colour contrast is checked only where the
 * phone shows more (`seriousViolations` in e2e/support.ts says why). In Arabic at the desktop's width only: its phone
 * layout is the English one's, mirrored (the same elements, classes and colours: no style of the app depends on both the
 * direction and the width), and the English pass checks that at the phone's width.
 */
async function expectNoSeriousViolations(page: Page, what: string, lang: Lang) {
  for (const [name, viewport] of Object.entries(viewports)) {
    if (name === "mobile" && lang === "ar") continue;
    await page.setViewportSize(viewport);
    expect(await seriousViolations(page, { phoneAfterDesktop: name === "mobile" }), `${what} (${name})`).toEqual([]);
  }
}

async function useLanguage(page: Page, lang: Lang) {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
}

const screens = { en: "on a desktop and a phone screen", ar: "on a desktop screen" } as const;

const A11Y_ADMIN = { email: "a11y@medina.example", password: "a-strong-a11y-password" };
test.beforeAll(() => createAdmin(A11Y_ADMIN.email, A11Y_ADMIN.password));

for (const lang of ["en", "ar"] as const) {
  const check = async (page: Page, path: string) => {
    await page.goto(path);
    await expectNoSeriousViolations(page, `${path} (${lang})`, lang);
  };

  test(`axe: the shop's pages and the checkout with its errors in ${lang}, ${screens[lang]}`, async ({ page }) => {
    await useLanguage(page, lang);
    await check(page, "/");
    await check(page, "/?page=abc"); // the message for a page number that is not one

    // Two pages of products: the links between them. The extra products, after the others, are gone again after.
    const extra = `a11y-page-${lang}-`;
    await database((pool) =>
      pool.query(
        `insert into products (slug, name_en, name_ar, price_minor, sort_order)
         select $1 || i, 'Page filler ' || i, 'منتج إضافي ' || i, 1000, 1000000 + i from generate_series(1, 30) as i`,
        [extra],
      ),
    );
    try {
      await check(page, "/?page=2");
      await expect(page.getByRole("link", { name: shop("home.pagination.previous", lang) })).toHaveAttribute(
        "href",
        "/",
      );
    } finally {
      await database((pool) => pool.query("delete from products where slug like $1 || '%'", [extra]));
    }
    await check(page, "/cart"); // empty
    await check(page, "/this-page-does-not-exist");
    await check(page, "/orders/unknown");
    await addToCart(page, "olive-oil", 2, lang);
    await check(page, "/products/olive-oil");
    await check(page, "/cart");
    await check(page, "/checkout");

    // The checkout with errors shown.
    await page.getByLabel(shop("checkout.email", lang)).fill("not-an-email");
    await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
    await expect(page.getByTestId("checkout-error")).toBeVisible();
    await expectNoSeriousViolations(page, `checkout with errors (${lang})`, lang);
  });

  test(`axe: the payment pages, the paid order and the back office in ${lang}, ${screens[lang]}`, async ({
    page,
    request,
  }) => {
    await emulator.reset(request);
    await useLanguage(page, lang);
    await addToCart(page, "olive-oil", 2, lang);
    await page.goto("/checkout");
    await fillCheckout(page, {}, lang);
    await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    await expectNoSeriousViolations(page, `payment page: gateway selection (${lang})`, lang);
    await page.getByRole("radio", { name: "Sadad" }).check();
    await page.locator("form button[type=submit]").first().click();
    await expectNoSeriousViolations(page, `payment page: gateway (${lang})`, lang);
    await page.locator("button[name=outcome][value=pay]").click();
    await expect(page).toHaveURL(/\/orders\/ord_/);
    await expectNoSeriousViolations(page, `order page (${lang})`, lang);
    const orderPath = new URL(page.url()).pathname;
    await check(page, "/orders");

    // The back office: sign-in (with an error shown), asking for a sign-in link, the orders list, one order.
    await check(page, "/admin/sign-in?error=invalid");
    await check(page, "/admin/sign-in/link?error=limited&minutes=7");
    await signInAsAdmin(page, A11Y_ADMIN.email, A11Y_ADMIN.password, lang);
    await check(page, "/admin/orders");
    await check(page, `/admin${orderPath}`);
    // The paid order's page above has its cancel and refund forms; cancelled, it has its refund to make with the form
    // that records it, and the cancel in its timeline.
    await page.getByRole("radio", { name: shop("admin.afterSale.reasons.out_of_stock", lang) }).check();
    await page.getByRole("button", { name: shop("admin.afterSale.cancel.submit", lang) }).click();
    await expect(page.getByTestId("admin-refunds")).toBeVisible();
    await expect(page.getByTestId("order-timeline")).toContainText(
      shop("admin.events.order_cancelled", lang).replace("{by}", A11Y_ADMIN.email),
    );
    await expectNoSeriousViolations(page, `admin cancelled order (${lang})`, lang);

    // The catalogue: the list, a new product refused with its errors shown, then its page (stock, pictures, history).
    await check(page, "/admin/products");
    await check(page, "/admin/products/new");
    await page.getByLabel(shop("admin.products.form.fields.price", lang)).fill("0");
    await page.getByRole("button", { name: shop("admin.products.form.create", lang) }).click();
    await expect(page.getByTestId("product-form-error")).toBeVisible();
    await expectNoSeriousViolations(page, `admin new product with errors (${lang})`, lang);
    await page.getByLabel(shop("admin.products.form.fields.nameEn", lang)).fill("Woven basket");
    await page.getByLabel(shop("admin.products.form.fields.nameAr", lang)).fill("سلة منسوجة");
    await page.getByLabel(shop("admin.products.form.fields.slug", lang)).fill(`a11y-basket-${lang}-${Date.now()}`);
    await page.getByLabel(shop("admin.products.form.fields.price", lang)).fill("30");
    await page.getByLabel(shop("admin.products.form.fields.stock", lang)).fill("4");
    await page.getByRole("button", { name: shop("admin.products.form.create", lang) }).click();
    await expect(page.getByTestId("product-result")).toBeVisible();
    await expectNoSeriousViolations(page, `admin product (${lang})`, lang);
    await check(page, "/admin/cash");
    // A new promo code refused: every field of the form, with the summary, the fields' errors and the kinds' radios.
    await page.goto("/admin/promo-codes/new");
    await page.getByRole("button", { name: shop("admin.promo.form.create", lang) }).click();
    await expect(page.getByTestId("promo-error")).toBeVisible();
    await expectNoSeriousViolations(page, `admin new promo code with errors (${lang})`, lang);

    // Reconciliation: the form, then a checked list with a problem and a payment the shop has no order for.
    await check(page, "/admin/reconcile");
    await page
      .getByLabel(shop("admin.reconcile.paste", lang))
      .fill("token,amount,reference\npt-a11y-1,12.5.0,TXN-1\npt-a11y-2,5.00,TXN-2");
    await page.getByRole("button", { name: shop("admin.reconcile.check", lang) }).click();
    await expect(page.getByTestId("list-problems")).toBeVisible();
    await expectNoSeriousViolations(page, `admin payment list (${lang})`, lang);
  });

  test(`axe: the back office's home in ${lang}, ${screens[lang]}`, async ({ page }) => {
    await useLanguage(page, lang);
    await signInAsAdmin(page, A11Y_ADMIN.email, A11Y_ADMIN.password, lang);
    // The home with its chart and tables (the table under the chart opened), and a period it does not know.
    await page.goto("/admin?period=30d");
    await page
      .getByTestId("sales-table")
      .locator("xpath=ancestor::details")
      .evaluate((node) => node.setAttribute("open", ""));
    await expectNoSeriousViolations(page, `/admin?period=30d (${lang})`, lang);
    await check(page, "/admin?period=nonsense");
  });
}

test("the checkout works by keyboard alone", async ({ page, request }) => {
  await emulator.reset(request);
  await addToCart(page, "saffron");
  await page.goto("/checkout");
  await page.getByLabel(shop("checkout.fullName")).focus();
  await page.keyboard.type("Huda Salem");
  await page.keyboard.press("Tab");
  await page.keyboard.type("huda@example.ly");
  await page.keyboard.press("Tab");
  await page.keyboard.type("0912345678");
  // Past "Text me about this order", unticked by the e-mail typed.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: shop("checkout.smsUpdates") })).toBeFocused();
  await expect(page.getByRole("checkbox", { name: shop("checkout.smsUpdates") })).not.toBeChecked();
  // Through the delivery: the method (delivery is chosen), the city (the arrow picks the first), the address, then
  // past the optional landmark and second phone.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: shop("checkout.deliverTo") })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(shop("checkout.city"))).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByLabel(shop("checkout.city"))).not.toHaveValue("");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Gargaresh Street");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  // Into the gateway radio group: the arrow keys move the choice.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: shop("checkout.chooseLater") })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("radio", { name: "Bank card (MOAMALAT)" })).toBeChecked();
  // Past the promo code's field and its Apply button, to the checkout's own.
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(shop("checkout.promo.label"))).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: shop("checkout.promo.apply"), exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: shop("checkout.submit") })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  const [payment] = await emulator.payments(request);
  expect(payment).toMatchObject({ payment_gateway: "moamalat", full_name: "Huda Salem" });
});
