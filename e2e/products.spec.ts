import sharp from "sharp";
import { addToCart as addByForm, getPage, placePaidOrder, postForm, textOf, textsOf } from "../testing/no-js-shop";
import { createAdmin, currentLang, database, emulator, expect, shop, signInAsAdmin, stack, test } from "./support";

/**
 * The merchant's catalogue end to end, in Arabic (the `ar` project in playwright.config.ts; the English product form
 * is filled in e2e/a11y.spec.ts, a picture uploaded in e2e/proxy.spec.ts): the merchant adds a product with a picture
 * in the back office; the shop shows it with its picture; a customer buys it and its stock goes down; the merchant
 * sets the stock to the last unit; that unit is bought, and the shop says sold out to whoever else wanted it. The
 * rules behind each step are tested on the database (lib/catalog/*.test.ts).
 */

const ADMIN = { email: "catalogue@medina.example", password: "a-strong-catalogue-password" };
test.beforeAll(() => createAdmin(ADMIN.email, ADMIN.password));
test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/**
 * A customer buys `quantity` of a product, as a browser without JavaScript buys it (testing/no-js-shop.ts), and pays;
 * waits until the service's webhook has confirmed the order.
 */
async function buy(slug: string, quantity: number) {
  const { orderPath } = await placePaidOrder(stack().shopUrl, stack().emulatorUrl, { slug, quantity });
  const id = new URL(orderPath, stack().shopUrl).pathname.split("/").pop();
  await expect
    .poll(() => database(async (pool) => (await pool.query("select status from orders where id = $1", [id])).rows))
    .toEqual([{ status: "paid" }]);
}

test(
  "the merchant adds a product with a picture; it is sold in the shop until its last unit, then sold out",
  { tag: "@arabic" },
  async ({ page, request }) => {
    const lang = currentLang();
    const tail = `${lang}-${Date.now().toString(36)}`;
    const slug = `e2e-honey-${tail}`;
    const names = { en: `Green Mountain sidr honey ${tail}`, ar: `عسل السدر من الجبل الأخضر ${tail}` };

    // The merchant adds it, from the back office's navigation. A price that cannot be read is refused by its field,
    // and what was typed stays.
    await signInAsAdmin(page, ADMIN.email, ADMIN.password);
    await page.getByRole("link", { name: shop("admin.nav.products"), exact: true }).click();
    await page
      .getByRole("link", { name: shop("admin.products.list.add") })
      .first()
      .click();
    await page.getByLabel(shop("admin.products.form.fields.nameEn")).fill(names.en);
    await page.getByLabel(shop("admin.products.form.fields.nameAr")).fill(names.ar);
    await page.getByLabel(shop("admin.products.form.fields.slug")).fill(slug);
    await page.getByLabel(shop("admin.products.form.fields.price")).fill("forty");
    await page.getByLabel(shop("admin.products.form.fields.stock")).fill("5");
    await page.getByRole("button", { name: shop("admin.products.form.create") }).click();
    await expect(page.getByTestId("product-form-error")).toContainText(shop("admin.products.problems.priceInvalid"));
    await expect(page.getByLabel(shop("admin.products.form.fields.slug"))).toHaveValue(slug);
    await page.getByLabel(shop("admin.products.form.fields.price")).fill("45,50");
    await page.getByRole("button", { name: shop("admin.products.form.create") }).click();
    await expect(page.getByTestId("product-result")).toHaveText(shop("admin.products.form.results.created"));
    const productPath = new URL(page.url()).pathname;

    // Its picture: a PNG made here, stored re-encoded.
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#c8902f" } })
      .png()
      .toBuffer();
    await page
      .getByLabel(shop("admin.products.pictures.file"))
      .setInputFiles({ name: "honey.png", mimeType: "image/png", buffer: png });
    await page.getByRole("button", { name: shop("admin.products.pictures.upload") }).click();
    await expect(page.getByTestId("product-result")).toHaveText(shop("admin.products.form.results.picture_added"));

    // The shop's home page shows it at once, with its picture.
    await page.goto("/");
    const card = page.getByRole("link", { name: names[lang] });
    await expect(card).toBeVisible();
    const picture = card.locator("img");
    await expect(picture).toHaveAttribute("src", /^\/images\/[0-9a-f]{64}\.webp$/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
    const served = await request.get((await picture.getAttribute("src"))!);
    expect(served.headers()["content-type"]).toBe("image/webp");

    // A customer buys 2: the stock goes from 5 to 3.
    await buy(slug, 2);
    await page.goto(productPath);
    await expect(page.getByTestId("product-on-hand")).toHaveText("3");
    await expect(page.getByTestId("product-available")).toHaveText("3");

    // The merchant counts the shelf: one left.
    await page.getByLabel(shop("admin.products.stock.modes.set")).check();
    await page.getByLabel(shop("admin.products.stock.amount")).fill("1");
    await page.getByRole("button", { name: shop("admin.products.stock.submit") }).click();
    await expect(page.getByTestId("stock-form-message")).toHaveText(shop("admin.products.stock.fixFields"));
    await expect(page.getByText(shop("admin.products.stock.problems.reasonMissing"))).toBeVisible();
    await page.getByLabel(shop("admin.products.stock.reason")).fill("Counted the shelf");
    await page.getByRole("button", { name: shop("admin.products.stock.submit") }).click();
    await expect(page.getByTestId("product-on-hand")).toHaveText("1");

    // Two customers want the last unit; the first buys it. The other's cart says sold out, the product's page says so
    // and offers no "Add to cart", and the back office lists it among the sold out. That customer's pages are read as a
    // browser without JavaScript reads them (testing/no-js-shop.ts).
    const base = stack().shopUrl;
    const otherCart = await addByForm(base, { slug, lang });
    await buy(slug, 1);
    expect(textOf(await getPage(`${base}/cart`, otherCart, 200, lang), "body")).toContain(shop("cart.soldOut"));
    const otherProduct = await getPage(`${base}/products/${slug}`, otherCart, 200, lang);
    expect(textOf(otherProduct, '[data-testid="sold-out"]')?.trim()).toBe(shop("product.soldOut"));
    expect(textsOf(otherProduct, "button").map((text) => text.trim())).not.toContain(shop("product.add"));

    // That customer posts the back office's "Hide" form, taken from the merchant's page, without an admin session:
    // refused, and the product stays in the shop.
    await page.goto(productPath);
    const hide = page.locator("form", { has: page.getByRole("button", { name: shop("admin.products.form.hide") }) });
    const fields = await hide
      .locator("input[type=hidden]")
      .evaluateAll((inputs) =>
        inputs.map((input): [string, string] => [(input as HTMLInputElement).name, (input as HTMLInputElement).value]),
      );
    const forged = await postForm(new URL(productPath, base).href, fields, otherCart, lang);
    expect(forged.location ?? "").toMatch(/\/admin\/sign-in/);
    const [row] = await database(
      async (pool) => (await pool.query("select visible from products where slug = $1", [slug])).rows,
    );
    expect(row.visible).toBe(true);
    await page.goto("/admin/products?filter=sold_out");
    await expect(page.getByTestId("admin-product-row").filter({ hasText: slug })).toContainText(
      shop("admin.products.list.stockValue").replace("{onHand}", "0").replace("{available}", "0"),
    );
    // Its history: created, a picture, the stock counted with the reason (sales are orders, not catalogue edits).
    await page.goto(productPath);
    await expect(page.getByTestId("product-audit-row")).toHaveCount(3);
    await expect(page.getByTestId("product-audit-row").first()).toContainText("Counted the shelf");
    await expect(page.getByTestId("product-audit-row").first()).toContainText(ADMIN.email);
  },
);
