import sharp from "sharp";
import {
  addToCart as addByForm,
  adminCookie,
  formAsShown,
  getPage,
  hrefOf,
  nodeText,
  parseHtml,
  placePaidOrder,
  postForm,
  select,
  textOf,
  textsOf,
  valueOf,
} from "../testing/no-js-shop";
import { createAdmin, currentLang, database, emulator, expect, shop, stack, test } from "./support";

/**
 * The merchant's catalogue end to end, in Arabic (the `ar` project in playwright.config.ts; the English product form
 * is filled in e2e/a11y.spec.ts, a picture uploaded in e2e/proxy.spec.ts): the merchant adds a product with a picture
 * in the back office; the shop shows it with its picture; a customer buys it and its stock goes down; the merchant
 * sets the stock to the last unit; that unit is bought, and the shop says sold out to whoever else wanted it. The
 * rules behind each step are tested on the database (lib/catalog/*.test.ts). The merchant and the customers are
 * browsers without JavaScript (testing/no-js-shop.ts): every form here is a plain post, and the back office's forms
 * with JavaScript are driven in e2e/a11y.spec.ts.
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
  async ({ request }) => {
    const lang = currentLang();
    const base = stack().shopUrl;
    const tail = `${lang}-${Date.now().toString(36)}`;
    const slug = `e2e-honey-${tail}`;
    const names = { en: `Green Mountain sidr honey ${tail}`, ar: `عسل السدر من الجبل الأخضر ${tail}` };
    const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
    /** A back-office page as the merchant's browser reads it, at a path or a link's href. */
    const adminPage = (path: string) => getPage(new URL(path, base).href, admin, 200, lang);
    /** Where a form post sent the merchant: a 303 to the page that says what was done. */
    const followed = (answer: { status: number; location: string | null }) => {
      expect(answer.status).toBe(303);
      return new URL(answer.location!, base);
    };

    // The merchant adds it, from the back office's navigation. A price that cannot be read is refused by its field,
    // and what was typed stays.
    const list = await adminPage(hrefOf(await adminPage("/admin"), shop("admin.nav.products")));
    const newUrl = new URL(hrefOf(list, shop("admin.products.list.add")), base).href;
    const typed = { nameEn: names.en, nameAr: names.ar, slug, price: "forty", stock: "5" };
    const refused = await postForm(newUrl, formAsShown(await adminPage(newUrl), "nameEn", typed), admin, lang);
    expect(refused.status).toBe(200);
    expect(textOf(refused.html, '[data-testid="product-form-error"]')).toContain(
      shop("admin.products.problems.priceInvalid"),
    );
    expect(valueOf(refused.html, "slug")).toBe(slug);
    const created = followed(
      await postForm(newUrl, formAsShown(refused.html, "nameEn", { price: "45,50" }), admin, lang),
    );
    const productPath = created.pathname;
    const productPage = await adminPage(created.href);
    expect(textOf(productPage, '[data-testid="product-result"]')).toBe(shop("admin.products.form.results.created"));

    // Its picture: a PNG made here, stored re-encoded.
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#c8902f" } })
      .png()
      .toBuffer();
    const uploaded = followed(
      await postForm(
        created.href,
        [
          ...formAsShown(productPage, { button: shop("admin.products.pictures.upload") }),
          ["picture", new File([png], "honey.png", { type: "image/png" })],
        ],
        admin,
        lang,
      ),
    );
    expect(textOf(await adminPage(uploaded.href), '[data-testid="product-result"]')).toBe(
      shop("admin.products.form.results.picture_added"),
    );

    // The shop's home page shows it at once, with its picture: a WebP 400 pixels wide.
    const card = select("a", parseHtml(await getPage(`${base}/`, "", 200, lang))).find((link) =>
      nodeText(link).includes(names[lang]),
    );
    const src = card && select("img", card)[0]?.attribs.src;
    expect(src).toMatch(/^\/images\/[0-9a-f]{64}\.webp$/);
    const served = await request.get(src!);
    expect(served.headers()["content-type"]).toBe("image/webp");
    expect((await sharp(await served.body()).metadata()).width).toBe(400);

    // A customer buys 2: the stock goes from 5 to 3.
    await buy(slug, 2);
    const bought = await adminPage(productPath);
    expect(textOf(bought, '[data-testid="product-on-hand"]')).toBe("3");
    expect(textOf(bought, '[data-testid="product-available"]')).toBe("3");

    // The merchant counts the shelf: one left.
    const counted = { mode: "set", amount: "1" };
    const noReason = await postForm(created.href, formAsShown(bought, "amount", counted), admin, lang);
    expect(textOf(noReason.html, '[data-testid="stock-form-message"]')).toBe(shop("admin.products.stock.fixFields"));
    expect(textOf(noReason.html, "main")).toContain(shop("admin.products.stock.problems.reasonMissing"));
    const withReason = formAsShown(noReason.html, "amount", { ...counted, reason: "Counted the shelf" });
    await postForm(created.href, withReason, admin, lang);
    const shelf = await adminPage(productPath);
    expect(textOf(shelf, '[data-testid="product-on-hand"]')).toBe("1");

    // Two customers want the last unit; the first buys it. The other's cart says sold out, the product's page says so
    // and offers no "Add to cart", and the back office lists it among the sold out.
    const otherCart = await addByForm(base, { slug, lang });
    await buy(slug, 1);
    expect(textOf(await getPage(`${base}/cart`, otherCart, 200, lang), "body")).toContain(shop("cart.soldOut"));
    const otherProduct = await getPage(`${base}/products/${slug}`, otherCart, 200, lang);
    expect(textOf(otherProduct, '[data-testid="sold-out"]')?.trim()).toBe(shop("product.soldOut"));
    expect(textsOf(otherProduct, "button").map((text) => text.trim())).not.toContain(shop("product.add"));

    // That customer posts the back office's "Hide" form, taken from the merchant's page, without an admin session:
    // refused, and the product stays in the shop.
    const hide = formAsShown(shelf, { button: shop("admin.products.form.hide") });
    const forged = await postForm(created.href, hide, otherCart, lang);
    expect(forged.location ?? "").toMatch(/\/admin\/sign-in/);
    const [row] = await database(
      async (pool) => (await pool.query("select visible from products where slug = $1", [slug])).rows,
    );
    expect(row.visible).toBe(true);
    const soldOut = textsOf(await adminPage("/admin/products?filter=sold_out"), '[data-testid="admin-product-row"]');
    expect(soldOut.find((text) => text.includes(slug))).toContain(
      shop("admin.products.list.stockValue").replace("{onHand}", "0").replace("{available}", "0"),
    );
    // Its history: created, a picture, the stock counted with the reason (sales are orders, not catalogue edits).
    const history = textsOf(await adminPage(productPath), '[data-testid="product-audit-row"]');
    expect(history).toHaveLength(3);
    expect(history[0]).toContain("Counted the shelf");
    expect(history[0]).toContain(ADMIN.email);
  },
);
