import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  addToCart,
  type CaughtEmail,
  createAdmin,
  database,
  emulator,
  expect,
  fillCheckout,
  mailbox,
  shop,
  signInAsAdmin,
  stack,
  test,
} from "./support";

/** Captures every page of the shop (and the payment pages of the emulator) for the README. Not part of npm test. */

const DIR = "docs/screenshots";
const viewports = { desktop: { width: 1280, height: 900 }, mobile: { width: 390, height: 844 } } as const;
const ADMIN = { email: "owner@medina.example", password: "a-strong-screenshot-password" };
test.beforeAll(async () => {
  await createAdmin(ADMIN.email, ADMIN.password);
  await seedOrders();
});

/** A few orders of every kind, so the back office's screenshots show what a merchant's day looks like. */
async function seedOrders() {
  const kinds: [string, string[], boolean, string, string, number][] = [
    ["paid", [], true, "Khadija Al-Mansouri", "khadija@example.ly", 12_750],
    ["paid", [], false, "Omar Zwai", "omar.zwai@example.ly", 8_500],
    ["awaiting_confirmation", [], false, "Fatima Ben Omran", "fatima@example.ly", 3_750],
    ["paid", ["paid_after_cancel"], false, "Salem Fathi", "salem@example.ly", 6_200],
    ["pending", [], false, "Huda Elmagri", "huda@example.ly", 2_500],
    ["cancelled", [], false, "Ali Gaddafi", "ali@example.ly", 4_250],
    ["expired", [], false, "Mariam Swehli", "mariam@example.ly", 8_900],
  ];
  await database(async (pool) => {
    for (const [index, [status, flags, fulfilled, name, email, amount]] of kinds.entries()) {
      const id = `ord_seed${String(index).padStart(12, "0")}`; // a valid order id: base-32, no o
      await pool.query(
        `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, email, phone,
           payment_token, payment_url, payment_expires_at, claim_expires_at, flags, fulfilled_at, fulfilment, paid_at,
           paid_gateway, created_at)
         values ($1, 'demo', $1, $2, $3, 'LYD', 'en', $4, $5, '0912345678', 'pt-' || $1, 'https://pay.example.ly/x',
           now() + interval '10 minutes', now(), $6, case when $7 then now() end, case when $7 then 'fulfilled' end,
           case when $2 = 'paid' then now() - ($8 || ' hours')::interval + interval '3 minutes' end,
           case when $2 = 'paid' then 'sadad' end, now() - ($8 || ' hours')::interval)
         on conflict do nothing`,
        [id, status, amount, name, email, flags, fulfilled, 7 - index],
      );
    }
    // A week of earlier sales for the home's chart: two to five paid orders a day, most of them fulfilled.
    await pool.query(
      `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, payment_token,
         claim_expires_at, paid_at, paid_gateway, fulfilled_at, fulfilment, created_at)
       select 'ord_week' || lpad(i::text, 12, '0'), 'demo', 'week-' || i, 'paid', 1500 + (i * 3371) % 14000, 'LYD', 'en',
         'Customer ' || i, 'pt-week-' || i, now(), at + interval '3 minutes',
         (array['moamalat', 'sadad', 'edfali', 'mobicash'])[1 + i % 4], case when i % 5 <> 0 then at + interval '1 day' end,
         case when i % 5 <> 0 then 'fulfilled' end, at
       from generate_series(1, 24) as i,
         lateral (select now() - ((1 + i % 6) || ' days')::interval - ((i * 7) % 10 || ' hours')::interval as at) as t
       where i % 6 <> 4 or i % 4 = 0
       on conflict do nothing`,
    );
  });
}

for (const lang of ["en", "ar"] as const) {
  for (const [device, viewport] of Object.entries(viewports)) {
    test(`${lang} ${device}`, async ({ page, request }) => {
      mkdirSync(DIR, { recursive: true });
      await emulator.reset(request);
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
      const shot = (name: string) => page.screenshot({ path: `${DIR}/${name}-${lang}-${device}.png`, fullPage: true });
      const visit = async (path: string, name: string) => {
        await page.goto(path);
        // A full-page picture shows what is below the fold too: load every picture, lazy or not, before taking it.
        await page.evaluate(() => document.querySelectorAll("img").forEach((img) => (img.loading = "eager")));
        await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0));
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
      // Delivery to Benghazi: the summary shows its fee on a line of its own, and in the total.
      await fillCheckout(
        page,
        {
          full_name: lang === "ar" ? "سالم فتحي" : "Salem Fathi",
          delivery: {
            city: lang === "ar" ? "بنغازي" : "Benghazi",
            address: lang === "ar" ? "الفويهات، شارع البندقية 7" : "Al-Fuwayhat, Venice Street 7",
            landmark: lang === "ar" ? "خلف صيدلية الشفاء" : "Behind Al-Shifa pharmacy",
          },
        },
        lang,
      );
      await expect(page.getByTestId("delivery-fee")).not.toBeEmpty();
      await shot("checkout-delivery");
      await page.getByLabel(shop("checkout.email", lang)).fill("salem-at-example");
      await page.getByLabel(shop("checkout.phone", lang)).fill("12345");
      await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
      await expect(page.getByTestId("checkout-error")).toBeVisible();
      await shot("checkout-errors");

      // A valid address this time, so the customer gets a receipt (shot below).
      await page.getByLabel(shop("checkout.email", lang)).fill("salem@example.ly");
      await page.getByLabel(shop("checkout.phone", lang)).fill("0912345678");
      await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
      await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
      await shot("payment-page");
      await page.getByRole("radio", { name: "Sadad" }).check();
      await page.locator("form button[type=submit]").first().click();
      await shot("payment-gateway");
      await page.locator("button[name=outcome][value=pay]").click();
      await expect(page).toHaveURL(/\/orders\/ord_/);
      await shot("order-paid");
      const orderPath = new URL(page.url()).pathname;
      if (device === "desktop") await shootEmails(page, request, orderPath.split("/").pop()!, lang);
      await visit("/orders", "orders");
      await visit("/orders/unknown", "order-unknown");

      await visit("/admin/sign-in", "admin-sign-in");
      await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
      await shot("admin-orders");
      await visit("/admin?period=7d", "admin-home");
      await visit(`/admin${orderPath}`, "admin-order");

      // The catalogue: the list, one product's page (details, stock, pictures, history), the new product's form.
      await visit("/admin/products", "admin-products");
      await page.getByTestId("admin-product-row").first().getByRole("link").click();
      await expect(page).toHaveURL(/\/admin\/products\/\d+$/);
      await shot("admin-product");
      await visit("/admin/products/new", "admin-product-new");
      // The catalogue as a spreadsheet: the import page, and a file checked (never applied: shots repeat) with one
      // product to add, one to change and one problem named by row and column.
      await visit("/admin/products/import", "admin-products-import");
      const csv = [
        "slug,nameEn,nameAr,price,stock",
        "honey-jar,Sidr honey jar,جرة عسل السدر,65.00,12",
        'saffron,"Saffron threads, 2 g",خيوط الزعفران، 2 غ,19.50,',
        "dates-box,Dates box,علبة تمر,abc,",
      ].join("\r\n");
      await page
        .getByLabel(shop("admin.products.csv.file", lang).replace("{kb}", String(4 * 1024)))
        .setInputFiles({ name: "products.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: shop("admin.products.csv.check", lang) }).click();
      await expect(page).toHaveURL(/\/admin\/products\/import\/imp_/);
      await shot("admin-products-import-check");

      // Reconciliation: the form, and a dashboard list of seeded payments checked (never applied: shots repeat).
      await visit("/admin/reconcile", "admin-reconcile");
      const today = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Tripoli" }).format(new Date());
      const list = [
        "Payment token;Amount;Transaction reference;Date",
        `pt-ord_seed000000000006;89,00;TXN-20931;${today}`,
        `pt-ord_seed000000000004;25,00;TXN-20934;${today}`,
        `pt-ord_seed000000000005;40,00;TXN-20940;${today}`,
        `pt-ord_seed000000000000;127,50;TXN-20911;${today}`,
        `pt-not-this-shop;15,00;TXN-20952;${today}`,
      ].join("\n");
      await page.getByLabel(shop("admin.reconcile.paste", lang)).fill(list);
      await page.getByRole("button", { name: shop("admin.reconcile.check", lang) }).click();
      await expect(page).toHaveURL(/\/admin\/reconcile\/lst_/);
      await shot("admin-reconcile-list");
    });
  }
}

/**
 * The delivery note of a paid delivery to Benghazi (seeded: an order as the checkout and the webhook leave it), from
 * the back office in each language: its labels are in both whatever the page's, so the two shots differ only in the
 * frame around it. Desktop only: the note is printed on A5.
 */
for (const lang of ["en", "ar"] as const) {
  test(`delivery note ${lang}`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    const id = "ord_seedde1very00000"; // a valid order id: base-32, no i, l, o or u
    await database(async (pool) => {
      const { rows } = await pool.query("select id, fee_minor from delivery_zones where name_en = 'Benghazi'");
      await pool.query(
        `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, email,
           phone, payment_token, payment_url, payment_expires_at, claim_expires_at, delivery_method, delivery_zone_id,
           delivery_city_en, delivery_city_ar, delivery_address, delivery_landmark, second_phone, delivery_fee_minor,
           fulfilment)
         values ($1, 'demo', $1, 'paid', 8500 + $3, 'LYD', 'ar', 'عائشة بن علي', 'aisha@example.ly', '+218912345678',
           'pt-' || $1, 'https://pay.example.ly/x', now() + interval '10 minutes', now(), 'delivery', $2, 'Benghazi',
           'بنغازي', 'الفويهات، شارع جمال عبد الناصر، عمارة 12', 'قرب مسجد عصمان', '+218923456789', $3, 'packed')
         on conflict do nothing`,
        [id, rows[0].id, rows[0].fee_minor],
      );
      await pool.query(
        `insert into order_lines (order_id, position, product_slug, name, unit_minor, quantity)
         values ($1, 0, 'olive-oil', 'زيت زيتون بكر، 1 لتر', 4250, 2) on conflict do nothing`,
        [id],
      );
      const { rowCount } = await pool.query("select 1 from order_events where order_id = $1", [id]);
      if (!rowCount)
        await pool.query("insert into order_events (order_id, type, data) values ($1, 'webhook_received', $2)", [
          id,
          { verified: true, from: "awaiting_confirmation", to: "paid", gateway: "sadad", transactionId: "TXN-20977" },
        ]);
    });
    await page.setViewportSize(viewports.desktop);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
    await page.goto(`/admin/orders/${id}/note`);
    await expect(page.getByTestId("delivery-note")).toBeVisible();
    await page.screenshot({ path: `${DIR}/admin-delivery-note-${lang}-desktop.png`, fullPage: true });
  });
}

/**
 * Delivery in the back office: the zones (the seeded cities, their fees, one free from a total, one turned off) and
 * pickup's form. Separate from the tour above, so that `--grep "admin delivery"` takes these alone.
 */
for (const lang of ["en", "ar"] as const) {
  for (const [device, viewport] of Object.entries(viewports)) {
    test(`admin delivery ${lang} ${device}`, async ({ page }) => {
      mkdirSync(DIR, { recursive: true });
      // Set as a merchant would have it; the same values each time, so the shots repeat.
      await database(async (pool) => {
        await pool.query(`update delivery_zones set free_above_minor = 30000 where name_en = 'Tripoli'`);
        await pool.query(`update delivery_zones set enabled = false where name_en = 'Kufra'`);
      });
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
      await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
      await page.goto("/admin/delivery");
      await page.screenshot({ path: `${DIR}/admin-delivery-${lang}-${device}.png`, fullPage: true });
    });
  }
}

/**
 * The bulk picture upload (app/admin/products/pictures) after an upload of four files: two matched to their products by
 * name, one whose name is no product's slug, one that is not a picture. `--grep "admin bulk pictures"` takes these alone.
 */
for (const lang of ["en", "ar"] as const) {
  test(`admin bulk pictures ${lang} desktop`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize(viewports.desktop);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
    await page.goto("/admin/products/pictures");
    const drawing = async (name: string) =>
      sharp(await readFile(path.join("lib/catalog/demo", `${name}.svg`)), { density: 144 })
        .png()
        .toBuffer();
    await page.getByLabel(shop("admin.products.bulkPictures.file", lang)).setInputFiles([
      { name: "olive-oil.png", mimeType: "image/png", buffer: await drawing("olive-oil") },
      { name: "saffron.png", mimeType: "image/png", buffer: await drawing("saffron") },
      { name: "brass-lantern.png", mimeType: "image/png", buffer: await drawing("bowl") },
      { name: "mint-tea-set.jpg", mimeType: "image/jpeg", buffer: Buffer.from("a price list, not a picture") },
    ]);
    await page.getByRole("button", { name: shop("admin.products.bulkPictures.upload", lang) }).click();
    await expect(page.getByTestId("bulk-pictures-row")).toHaveCount(4);
    await page.screenshot({ path: `${DIR}/admin-bulk-pictures-${lang}-desktop.png`, fullPage: true });
  });
}

/**
 * The back office's lists at a phone's narrowest common width, 360 px, in both directions: each row's total and status
 * in view without scrolling sideways. Separate from the tour above, so that `--grep "admin lists"` takes these alone.
 */
for (const lang of ["en", "ar"] as const) {
  test(`admin lists ${lang} 360`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize({ width: 360, height: 780 });
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
    for (const [path, name] of [
      ["/admin/orders", "orders"],
      ["/admin/products", "products"],
      ["/admin/delivery", "delivery"],
    ] as const) {
      await page.goto(path);
      for (const image of await page.locator("img").all()) await image.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${DIR}/admin-list-${name}-${lang}-360.png`, fullPage: true });
    }
    // A dashboard list checked (never applied), then the recent lists that name it.
    await page.goto("/admin/reconcile");
    await page
      .getByLabel(shop("admin.reconcile.paste", lang))
      .fill(
        "Payment token;Amount;Transaction reference\npt-ord_seed000000000000;127,50;TXN-20911\npt-elsewhere;15,00;TXN-20952",
      );
    await page.getByRole("button", { name: shop("admin.reconcile.check", lang) }).click();
    await expect(page).toHaveURL(/\/admin\/reconcile\/lst_/);
    await page.screenshot({ path: `${DIR}/admin-list-reconcile-check-${lang}-360.png`, fullPage: true });
    await page.goto("/admin/reconcile");
    await page.screenshot({ path: `${DIR}/admin-list-reconcile-${lang}-360.png`, fullPage: true });
  });
}

/**
 * The order's two e-mails as the catcher received them, each rendered on its own in the browser: the receipt in the
 * order's language, and the merchant's notice. The shop's merchant reads English (MERCHANT_LOCALE's default); for the
 * Arabic shot the notice is queued once more in Arabic, as a merchant with MERCHANT_LOCALE=ar gets it, and sent by
 * the scheduled job.
 */
async function shootEmails(page: Page, request: APIRequestContext, orderId: string, lang: "en" | "ar") {
  let emails = await mailbox.waitFor(request, orderId, 2);
  const isNotice = (email: CaughtEmail) => email.to[0]?.address === stack().env.MERCHANT_EMAIL;
  if (lang === "ar") {
    await database((pool) =>
      pool.query(
        `insert into email_outbox (order_id, kind, reason, recipient, locale, message_id)
         values ($1, 'merchant_notice', 'resend', $2, 'ar', $3)`,
        [orderId, stack().env.MERCHANT_EMAIL, `<screenshot-${orderId}@medina.example>`],
      ),
    );
    await request.get(`${stack().shopUrl}/api/cron/expire-orders`, {
      headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` },
    });
    emails = await mailbox.waitFor(request, orderId, 3);
  }
  const shots = [
    ["email-receipt", emails.find((email) => !isNotice(email))],
    ["email-merchant", emails.find((email) => isNotice(email) && email.html.includes(`lang="${lang}"`))],
  ] as const;
  const view = await page.context().newPage();
  await view.setViewportSize({ width: 720, height: 300 }); // the shot grows to the e-mail's height
  for (const [name, email] of shots) {
    await view.setContent(email!.html);
    await view.screenshot({ path: `${DIR}/${name}-${lang}.png`, fullPage: true });
  }
  await view.close();
}

/**
 * Cash on delivery: the checkout's question with the cash fee in the summary, the customer's order waiting for the
 * merchant's call, the merchant's cash panel (placed, then out for delivery), the delivery note that says what to
 * collect, and the settings page. `--grep "cash on delivery"` takes these alone.
 */
for (const lang of ["en", "ar"] as const) {
  test(`cash on delivery ${lang} desktop`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    const shot = (name: string) => page.screenshot({ path: `${DIR}/${name}-${lang}-desktop.png`, fullPage: true });
    await database((pool) => pool.query("update cash_on_delivery set enabled = true, fee_minor = 500 where id = 1"));
    try {
      await page.setViewportSize(viewports.desktop);
      await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
      await addToCart(page, "olive-oil", 2, lang);
      await page.goto("/checkout");
      await fillCheckout(
        page,
        {
          full_name: lang === "ar" ? "عائشة بن علي" : "Aisha Ben Ali",
          phone: lang === "ar" ? "0923456781" : "0923456782",
          delivery: { address: lang === "ar" ? "قرقارش، شارع 12" : "Gargaresh, Street 12" },
        },
        lang,
      );
      await page.getByRole("radio", { name: shop("checkout.cash.cash", lang) }).check();
      await expect(page.getByTestId("cash-fee")).toBeVisible();
      await shot("checkout-cash");
      await page.getByRole("button", { name: shop("checkout.cash.submitCash", lang) }).click();
      await expect(page).toHaveURL(/\/orders\/ord_/);
      await shot("order-cash-placed");
      const id = new URL(page.url()).pathname.split("/").pop()!;

      await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
      await page.goto(`/admin/orders/${id}`);
      await shot("admin-order-cash-placed");
      // Confirmed by phone, packed and out for delivery (as the moves leave it), for the panel's later forms and the note.
      await database((pool) =>
        pool.query("update orders set status = 'confirmed', fulfilment = 'out_for_delivery' where id = $1", [id]),
      );
      await page.goto(`/admin/orders/${id}`);
      await shot("admin-order-cash-out");
      await page.goto(`/admin/orders/${id}/note`);
      await expect(page.getByTestId("delivery-note")).toBeVisible();
      await shot("admin-delivery-note-cash");
      await page.goto("/admin/cash");
      await shot("admin-cash");
    } finally {
      await database((pool) => pool.query("update cash_on_delivery set enabled = false, fee_minor = 0 where id = 1"));
    }
  });
}

/**
 * Promo codes at the checkout: the code's field applied, with the discount's line in the summary; and a code refused
 * on its field. `--grep "promo checkout"` takes these alone.
 */
for (const lang of ["en", "ar"] as const) {
  test(`promo checkout ${lang} desktop`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    const shot = (name: string) => page.screenshot({ path: `${DIR}/${name}-${lang}-desktop.png`, fullPage: true });
    await database((pool) =>
      pool.query(
        `insert into promo_codes (code, kind, percent, ends_at) values ('EID10', 'percent', 10, null), ('RAMADAN', 'percent', 15, now() - interval '1 day') on conflict do nothing`,
      ),
    );
    await page.setViewportSize(viewports.desktop);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await addToCart(page, "olive-oil", 2, lang);
    await page.goto("/checkout");
    await fillCheckout(
      page,
      {
        full_name: lang === "ar" ? "عائشة بن علي" : "Aisha Ben Ali",
        delivery: { address: lang === "ar" ? "قرقارش، شارع 12" : "Gargaresh, Street 12" },
      },
      lang,
    );
    const field = page.getByLabel(shop("checkout.promo.label", lang));
    await field.fill("ramadan");
    await page.getByRole("button", { name: shop("checkout.promo.apply", lang), exact: true }).click();
    await expect(page.locator("#promo_code-error")).toBeVisible();
    await shot("checkout-promo-refused");
    await field.fill("eid10");
    await page.getByRole("button", { name: shop("checkout.promo.apply", lang), exact: true }).click();
    await expect(page.getByTestId("discount-line")).toBeVisible();
    await page.locator("#promo_code").focus();
    await shot("checkout-promo");
  });
}

/**
 * Promo codes in the back office: the list (a percentage with limits and a held use, a fixed amount from a minimum
 * for Ramadan, free delivery turned off) and a code's form with its changes. `--grep "admin promo codes"` takes these
 * alone.
 */
for (const lang of ["en", "ar"] as const) {
  test(`admin promo codes ${lang} desktop`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    // The same codes each time, so the shots repeat.
    const id = await database(async (pool) => {
      await pool.query(
        `insert into promo_codes (code, kind, percent, amount_minor, min_lines_minor, starts_at, ends_at, max_uses,
           max_uses_per_customer, enabled)
         values ('EID10', 'percent', 10, null, 0, null, '2027-04-01 22:00+00', 100, 1, true),
                ('RAMADAN5', 'amount', null, 500, 5000, '2027-02-08 22:00+00', '2027-03-09 22:00+00', null, null, true),
                ('FREESHIP', 'free_delivery', null, null, 20000, null, null, 50, null, false)
         on conflict (code) do nothing`,
      );
      const [code] = (await pool.query(`select id from promo_codes where code = 'EID10'`)).rows;
      await pool.query(
        `insert into promo_code_events (code_id, type, by, data)
         select $1, 'code_created', $2, '{"before": null, "after": {}}'
         where not exists (select 1 from promo_code_events where code_id = $1)`,
        [code.id, ADMIN.email],
      );
      // Three paid orders used EID10 and one whose payment page is open holds a use.
      for (const [index, status] of ["paid", "paid", "paid", "pending"].entries()) {
        await pool.query(
          `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, payment_token,
             payment_expires_at, claim_expires_at, paid_at, promo_code_id, promo_code, discount_minor)
           values ($1, 'demo', $1, $2, 3825, 'LYD', 'en', 'pt-' || $1, now() + interval '1 day', now(),
             case when $2 = 'paid' then now() end, $3, 'EID10', 425)
           on conflict do nothing`,
          [`ord_dsc${String(index).padStart(13, "0")}`, status, code.id],
        );
      }
      return code.id as number;
    });
    await page.setViewportSize(viewports.desktop);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
    await page.goto("/admin/promo-codes");
    await page.screenshot({ path: `${DIR}/admin-promo-codes-${lang}-desktop.png`, fullPage: true });
    await page.goto(`/admin/promo-codes/${id}`);
    await page.screenshot({ path: `${DIR}/admin-promo-code-${lang}-desktop.png`, fullPage: true });
  });
}

/**
 * After the sale: a paid delivery's order page with its refund form, then — 10 LYD refunded with its reference and the
 * order cancelled (out of stock) — its refunds (one made, one to make with the form that records it) and its timeline.
 * `--grep "refunds"` takes these alone.
 */
for (const lang of ["en", "ar"] as const) {
  test(`refunds ${lang} desktop`, async ({ page }) => {
    mkdirSync(DIR, { recursive: true });
    const shot = (name: string) => page.screenshot({ path: `${DIR}/${name}-${lang}-desktop.png`, fullPage: true });
    // A valid order id of its own (base-32, no i, l, o or u): a shot taken again starts from a paid order again.
    const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
    const id = `ord_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => alphabet[byte % 32]).join("")}`;
    await database(async (pool) => {
      const { rows } = await pool.query("select id, fee_minor from delivery_zones where name_en = 'Tripoli'");
      await pool.query(
        `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, email,
           phone, payment_token, payment_url, payment_expires_at, claim_expires_at, paid_at, paid_gateway,
           delivery_method, delivery_zone_id, delivery_city_en, delivery_city_ar, delivery_address, delivery_fee_minor,
           fulfilment)
         values ($1, 'demo', $1, 'paid', 8500 + $4, 'LYD', $2, 'Aisha Ben Ali', 'aisha@example.ly', '+218912345678',
           'pt-' || $1, 'https://pay.example.ly/x', now() + interval '10 minutes', now(), now(), 'sadad', 'delivery',
           $3, 'Tripoli', 'طرابلس', 'Gargaresh, Street 12', $4, 'packed')`,
        [id, lang, rows[0].id, rows[0].fee_minor],
      );
      await pool.query(
        `insert into order_lines (order_id, position, product_slug, name, unit_minor, quantity)
         values ($1, 0, 'olive-oil', $2, 4250, 2)`,
        [id, lang === "ar" ? "زيت زيتون بكر، 1 لتر" : "Extra virgin olive oil, 1 l"],
      );
      await pool.query("insert into order_events (order_id, type, data) values ($1, 'webhook_received', $2)", [
        id,
        { verified: true, from: "awaiting_confirmation", to: "paid", gateway: "sadad", transactionId: "TXN-20988" },
      ]);
    });
    await page.setViewportSize(viewports.desktop);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await signInAsAdmin(page, ADMIN.email, ADMIN.password, lang);
    await page.goto(`/admin/orders/${id}`);
    await expect(page.getByTestId("refund-form")).toBeVisible();
    await page.getByTestId("refund-form").scrollIntoViewIfNeeded();
    await shot("admin-order-refund");
    const form = page.getByTestId("refund-form");
    await form.getByLabel(shop("admin.afterSale.refund.amount", lang)).fill("10.00");
    await form.getByLabel(shop("admin.afterSale.refund.reference", lang)).fill("RF-20988-1");
    await form.getByRole("button", { name: shop("admin.afterSale.refund.submit", lang), exact: true }).click();
    await expect(page.getByTestId("refund-row")).toHaveCount(1);
    await page.getByRole("radio", { name: shop("admin.afterSale.reasons.out_of_stock", lang) }).check();
    await page.getByRole("button", { name: shop("admin.afterSale.cancel.submit", lang) }).click();
    await expect(page.getByTestId("refund-row")).toHaveCount(2);
    await shot("admin-order-refunds-timeline");
  });
}

for (const lang of ["en", "ar"] as const) {
  test(`find my order ${lang} desktop`, async ({ page }) => {
    await page.setViewportSize(viewports.desktop);
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    const orderId = `ord_f1ndsh0t${lang}000000`;
    const phone = lang === "ar" ? "0923456701" : "0923456702";
    await database((pool) =>
      pool.query(
        `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, phone, payment_token,
           claim_expires_at) values ($1, 'another-browser', $1, 'paid', 3500, 'LYD', $2, $3, 'pt-' || $1, now())
         on conflict (id) do nothing`,
        [orderId, lang, phone],
      ),
    );
    await page.goto("/orders/find");
    await page.getByLabel(shop("findOrder.orderNumber", lang)).fill(orderId);
    await page.getByLabel(shop("findOrder.phone", lang)).fill(phone);
    await page.screenshot({ path: `${DIR}/find-order-${lang}-desktop.png`, fullPage: true });
    await page.getByRole("button", { name: shop("findOrder.submit", lang) }).click();
    await expect(page.getByTestId("find-order-sent")).toBeVisible();
    await page.screenshot({ path: `${DIR}/find-order-code-${lang}-desktop.png`, fullPage: true });
  });
}
