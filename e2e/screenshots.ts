import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { EMULATOR_URL, SHOP_URL } from "../playwright.config";
import { addToCart, createAdmin, emulator, shop, signInAsAdmin } from "./support";

/** Captures every page of the shop (and the payment pages of the emulator) for the README. Not part of npm test. */

const DIR = "docs/screenshots";
const viewports = { desktop: { width: 1280, height: 900 }, mobile: { width: 390, height: 844 } } as const;
const ADMIN = { email: "owner@medina.example", password: "a-strong-screenshot-password" };
test.beforeAll(() => createAdmin(ADMIN.email, ADMIN.password));

for (const lang of ["en", "ar"] as const) {
  for (const [device, viewport] of Object.entries(viewports)) {
    test(`${lang} ${device}`, async ({ page, request }) => {
      mkdirSync(DIR, { recursive: true });
      await emulator.reset(request);
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: SHOP_URL }]);
      const shot = (name: string) => page.screenshot({ path: `${DIR}/${name}-${lang}-${device}.png`, fullPage: true });
      const visit = async (path: string, name: string) => {
        await page.goto(path);
        await shot(name);
      };

      await visit("/", "home");
      await visit("/cart", "cart-empty");
      await visit("/nothing-here", "not-found");
      await addToCart(page, "ghadames-slippers", 1, lang);
      await addToCart(page, "olive-oil", 2, lang);
      await visit("/products/ghadames-slippers", "product");
      await visit("/cart", "cart");
      await visit("/checkout", "checkout");
      await page.getByLabel(shop("checkout.email", lang)).fill("salem-at-example");
      await page.getByLabel(shop("checkout.phone", lang)).fill("12345");
      await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
      await expect(page.getByTestId("checkout-error")).toBeVisible();
      await shot("checkout-errors");

      await page.getByLabel(shop("checkout.email", lang)).fill("");
      await page.getByLabel(shop("checkout.phone", lang)).fill("");
      await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
      await expect(page).toHaveURL(new RegExp(`^${EMULATOR_URL}/`));
      await shot("payment-page");
      await page.getByRole("radio", { name: "Sadad" }).check();
      await page.locator("form button[type=submit]").first().click();
      await shot("payment-gateway");
      await page.locator("button[name=outcome][value=pay]").click();
      await expect(page).toHaveURL(/\/orders\/ord_/);
      await shot("order-paid");
      const orderPath = new URL(page.url()).pathname;
      await visit("/orders", "orders");
      await visit("/orders/unknown", "order-unknown");

      await visit("/admin/sign-in", "admin-sign-in");
      await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
      await shot("admin-orders");
      await visit(`/admin${orderPath}`, "admin-order");
    });
  }
}
