import { formatMoney } from "../lib/money";
import {
  addToCart,
  findForm,
  getPage,
  isPaymentPage,
  loadCheckoutForm,
  parseHtml,
  placeCashOrder,
  select,
  submitCheckout,
  textOf,
  valueOf,
} from "../testing/no-js-shop";
import {
  addToCart as addInBrowser,
  database,
  emulator,
  expect,
  fillCheckout,
  seriousViolations,
  shop,
  stack,
  test,
  type Lang,
} from "./support";

/**
 * Promo codes at the checkout: the code's field and its "Apply" button, the discount's line in the summary, each
 * refusal said on the field with the input kept, the amount sent to the service and the order's code, cash on
 * delivery with a code. Driven as a browser without JavaScript drives it (testing/no-js-shop.ts), in both languages,
 * each test from a client address of its own (the shop trusts one proxy here: X-Forwarded-For) so the budget of wrong
 * codes is its own; Chromium for what needs JavaScript (the summary following the field, Enter applying) and axe.
 * The race for a code's last uses over two instances is in e2e/instances.spec.ts, beside the others.
 */

/** Tripoli's delivery fee in the browser tests' seed (scripts/seed). */
const TRIPOLI_FEE = 1_000;

/** A product of its own at 42.50 LYD, so no other test's cart or stock is in the way. @returns its slug. */
async function newProduct(): Promise<string> {
  const slug = `ka3k-${crypto.randomUUID().slice(0, 8)}`;
  await database((pool) =>
    pool.query(
      `insert into products (slug, name_en, name_ar, price_minor) values ($1, 'Eid ka''ak', 'كعك العيد', 4250)`,
      [slug],
    ),
  );
  return slug;
}

/**
 * A promo code of its own, 10 % off unless `columns` say otherwise (SQL column names and values).
 * @returns the code, upper case, as the merchant wrote it.
 */
async function newCode(columns: Record<string, string | number | Date | null> = {}): Promise<string> {
  const code = `EID${crypto.randomUUID().replaceAll("-", "").slice(0, 8).toUpperCase()}`;
  const row = { code, kind: "percent", percent: 10, ...columns };
  const names = Object.keys(row);
  await database((pool) =>
    pool.query(
      `insert into promo_codes (${names.join(", ")}) values (${names.map((_, i) => `$${i + 1}`).join(", ")})`,
      Object.values(row),
    ),
  );
  return code;
}

/** A cart of the product, in `lang` (the NEXT_LOCALE cookie), as a browser without JavaScript holds it. */
async function cartIn(lang: Lang, slug: string): Promise<string> {
  const locale = `NEXT_LOCALE=${lang}`;
  return `${locale}; ${await addToCart(stack().shopUrl, { slug, cookie: locale })}`;
}

/** A client of its own, behind the proxy the test shop trusts. */
const clientAt = (address: string) => ({ headers: { "X-Forwarded-For": address } });

/** A message of the code's field, with the code in it as the page writes it (left to right: an isolate). */
const promoMessage = (key: string, lang: Lang, values: Record<string, string> = {}) =>
  Object.entries(values).reduce(
    (text, [name, value]) => text.replace(`{${name}}`, name === "code" ? `\u2066${value}\u2069` : value),
    shop(`checkout.promo.${key}`, lang),
  );

/** The discount's line as the page's summary shows it: its label and its amount. */
const discountLine = (html: string) => [
  textOf(html, '[data-testid="discount-line"] dt'),
  textOf(html, '[data-testid="discount"]'),
];

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

test("without JavaScript, Apply shows the discount's line and the new total, the code as typed kept; paying with it sends the discounted amount and the order keeps the code, in English and Arabic", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const slug = await newProduct();
  const code = await newCode();
  for (const [lang, address] of [
    ["en", "192.0.2.11"],
    ["ar", "192.0.2.12"],
  ] as const) {
    const cookie = await cartIn(lang, slug);
    const { hidden, delivery } = await loadCheckoutForm(base, cookie, lang);
    const typed = { ...delivery, promo_code: ` ${code.toLowerCase()} ` };
    const applied = await submitCheckout(base, cookie, hidden, typed, { ...clientAt(address), lang, apply: true });

    expect(applied.status).toBe(200);
    expect(textOf(applied.html, '[data-testid="checkout-error"]')).toBeNull();
    expect(valueOf(applied.html, "promo_code")).toBe(typed.promo_code);
    expect(textOf(applied.html, "#promo_code-status")).toBe(
      shop("checkout.promo.applied", lang).replace("{code}", code),
    );
    // 10 % of 42.50 is 4.25, and Tripoli's fee, posted with the code, is on the summary too: its total is what the
    // customer pays next.
    expect(discountLine(applied.html)).toEqual([
      shop("checkout.promo.line", lang).replace("{code}", code),
      formatMoney(-425, lang),
    ]);
    expect(textOf(applied.html, '[data-testid="delivery-fee"]')).toBe(formatMoney(TRIPOLI_FEE, lang));
    expect(textOf(applied.html, '[data-testid="order-total"]')).toBe(formatMoney(4_250 + TRIPOLI_FEE - 425, lang));

    // Pay from the form as it came back (it posts the code applied as shown).
    const form = findForm(applied.html, "full_name")!;
    const paid = await submitCheckout(base, cookie, form.hidden, typed, { ...clientAt(address), lang });
    expect(paid.status).toBe(303);
    expect(isPaymentPage(paid.location, stack().emulatorUrl)).toBe(true);
  }
  const payments = await emulator.payments(request);
  expect(payments.map((payment) => payment.amount)).toEqual(["48.25", "48.25"]);
  const orders = await database(
    async (pool) =>
      (
        await pool.query(
          `select promo_code, discount_minor, amount_minor from orders where id = any($1) order by created_at`,
          [payments.map((payment) => payment.custom)],
        )
      ).rows,
  );
  expect(orders).toEqual(
    Array(2).fill({ promo_code: code, discount_minor: 425, amount_minor: 4_250 + TRIPOLI_FEE - 425 }),
  );
});

test("without JavaScript, a code refused says which on its field, the input kept: unknown, not yet valid (from when), ended, under its minimum (how much more), used up; after 5 wrong codes every code is refused for a while; paying with a refused code stores nothing", async ({
  request,
}) => {
  const base = stack().shopUrl;
  const slug = await newProduct();
  const day = 24 * 3_600_000;
  const startsAt = new Date(Date.now() + day);
  const codes = {
    later: await newCode({ starts_at: startsAt }),
    ended: await newCode({ ends_at: new Date(Date.now() - day) }),
    over50: await newCode({ min_lines_minor: 5_000 }),
    once: await newCode({ max_uses: 1 }),
    good: await newCode(),
  };
  const carts = {
    en: await cartIn("en", slug),
    ar: await cartIn("ar", slug),
  };
  const forms = { en: await loadCheckoutForm(base, carts.en), ar: await loadCheckoutForm(base, carts.ar, "ar") };
  const { hidden, delivery } = forms.en;
  const cookie = carts.en;
  const apply = (promo_code: string, address = "192.0.2.21", lang: Lang = "en") =>
    submitCheckout(
      base,
      carts[lang],
      forms[lang].hidden,
      { ...forms[lang].delivery, promo_code },
      { ...clientAt(address), lang, apply: true },
    );
  const refusal = async (promo_code: string, address?: string, lang?: Lang) => {
    const answer = await apply(promo_code, address, lang);
    expect(answer.status).toBe(200);
    expect(valueOf(answer.html, "promo_code")).toBe(promo_code);
    expect(answer.html).toContain('id="promo_code-error"');
    expect(textOf(answer.html, '[data-testid="discount-line"]')).toBeNull();
    return textOf(answer.html, "#promo_code-error");
  };

  // The code's last use is held by another customer's open payment.
  const other = await cartIn("en", slug);
  const otherForm = await loadCheckoutForm(base, other);
  const holder = await submitCheckout(base, other, otherForm.hidden, { ...otherForm.delivery, promo_code: codes.once });
  expect(isPaymentPage(holder.location, stack().emulatorUrl)).toBe(true);

  expect(await refusal("NOSUCHCODE")).toBe(shop("checkout.promo.unknown", "en"));
  expect(await refusal(codes.later)).toBe(
    promoMessage("notYet", "en", {
      code: codes.later,
      from: new Intl.DateTimeFormat("en", {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: "Africa/Tripoli",
      }).format(startsAt),
    }),
  );
  expect(await refusal(codes.ended)).toBe(promoMessage("expired", "en", { code: codes.ended }));
  expect(await refusal(codes.over50)).toBe(
    promoMessage("underMinimum", "en", { code: codes.over50, more: formatMoney(750, "en") }),
  );
  expect(await refusal(codes.once)).toBe(promoMessage("usedUp", "en", { code: codes.once }));
  expect(await refusal(codes.ended, "192.0.2.22", "ar")).toBe(promoMessage("expired", "ar", { code: codes.ended }));
  expect(await refusal(codes.over50, "192.0.2.22", "ar")).toBe(
    promoMessage("underMinimum", "ar", { code: codes.over50, more: formatMoney(750, "ar") }),
  );

  // Paying with a refused code: said on its field beside the other fields' problems; nothing stored.
  const phone = "0925550411";
  const refused = await submitCheckout(
    base,
    cookie,
    hidden,
    { ...delivery, phone, delivery_address: "", promo_code: codes.ended },
    clientAt("192.0.2.21"),
  );
  expect(refused.status).toBe(200);
  expect(textOf(refused.html, "#promo_code-error")).toBe(promoMessage("expired", "en", { code: codes.ended }));
  expect(refused.html).toContain('id="delivery_address-error"');
  const stored = await database(
    async (pool) => (await pool.query(`select id from orders where phone = $1`, [phone])).rows,
  );
  expect(stored).toEqual([]);

  // Four more wrong codes make five in two minutes: then even a good code gets "too many tries", in minutes.
  for (const wrong of ["WRONG1", "WRONG2", "WRONG3", "WRONG4"]) await apply(wrong);
  const tooMany = shop("checkout.promo.tooManyTries", "en").replace(
    /\{minutes, plural, .*\}\.$/,
    "", // the minutes are whatever is left of the window
  );
  expect(await refusal(codes.good)).toContain(tooMany);
  // Another address is not held to it.
  expect(textOf((await apply(codes.good, "192.0.2.23")).html, "#promo_code-status")).toBe(
    shop("checkout.promo.applied", "en").replace("{code}", codes.good),
  );
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("cash on delivery with a code: the cash fee, then the discount; the highest total the merchant takes in cash is compared with the discounted total, and the question is asked once a code brings the total under it", async () => {
  const base = stack().shopUrl;
  const slug = await newProduct();
  const code = await newCode({ kind: "amount", percent: null, amount_minor: 1_500 });
  // The merchant takes cash up to 55.00. To Tripoli: 42.50 + 10.00 + 5.00 cash fee = 57.50, over it; with the code's
  // 15.00 off the lines, 42.50.
  await database((pool) =>
    pool.query(`update cash_on_delivery set enabled = true, fee_minor = 500, max_total_minor = 5500 where id = 1`),
  );
  try {
    const cookie = await cartIn("en", slug);
    const { hidden, delivery } = await loadCheckoutForm(base, cookie);
    const cashQuestion = (html: string) => select('[data-testid="pay-fieldset"]:not([hidden])', parseHtml(html));
    expect(cashQuestion(await getPage(`${base}/checkout`, cookie))).toHaveLength(0);
    const without = await submitCheckout(base, cookie, hidden, { ...delivery, payment_method: "cash" });
    expect(textOf(without.html, '[data-testid="checkout-error"] p')).toBe(
      shop("problems.cashOverMax", "en")
        .replace("{max}", formatMoney(5_500, "en"))
        .replace("{total}", formatMoney(5_750, "en")),
    );
    const applied = await submitCheckout(base, cookie, hidden, { ...delivery, promo_code: code }, { apply: true });
    expect(cashQuestion(applied.html)).toHaveLength(1);

    const phone = "0925550421";
    const placed = await placeCashOrder(base, { slug, details: { phone, promo_code: code } });
    const [order] = await database(
      async (pool) =>
        (
          await pool.query(
            `select id, status, amount_minor, cash_fee_minor, discount_minor, promo_code from orders where phone = $1`,
            [phone],
          )
        ).rows,
    );
    expect(placed.orderPath).toBe(`/orders/${order.id}`);
    expect(order).toMatchObject({
      status: "placed",
      amount_minor: 4_250 + TRIPOLI_FEE + 500 - 1_500,
      cash_fee_minor: 500,
      discount_minor: 1_500,
      promo_code: code,
    });
  } finally {
    await database((pool) =>
      pool.query(`update cash_on_delivery set enabled = false, fee_minor = 0, max_total_minor = null where id = 1`),
    );
  }
});

for (const lang of ["en", "ar"] as const) {
  test(`with JavaScript, Enter in the code's field applies it: the summary shows the discount's line and the total with it, another code typed drops it, a wrong one is refused on the field; paying sends the discounted amount; axe clean (${lang})`, async ({
    page,
    request,
  }) => {
    const slug = await newProduct();
    const code = await newCode();
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: lang, url: stack().shopUrl }]);
    await addInBrowser(page, slug, 1, lang);
    await page.goto("/checkout");
    await fillCheckout(page, { full_name: "Hana Salem" }, lang);
    const total = page.getByTestId("order-total");
    await expect(total).toHaveText(formatMoney(4_250 + TRIPOLI_FEE, lang));

    const field = page.getByLabel(shop("checkout.promo.label", lang));
    await field.fill(code.toLowerCase());
    await field.press("Enter");
    await expect(page.getByTestId("discount-line")).toHaveText(
      shop("checkout.promo.line", lang).replace("{code}", code) + formatMoney(-425, lang),
    );
    await expect(total).toHaveText(formatMoney(4_250 + TRIPOLI_FEE - 425, lang));
    await expect(field).toHaveValue(code.toLowerCase());
    expect(await seriousViolations(page)).toEqual([]);

    // Typing another code drops the discount at once; applying a wrong one says so on the field.
    await field.fill("NOSUCH");
    await expect(page.getByTestId("discount-line")).toHaveCount(0);
    await page.getByRole("button", { name: shop("checkout.promo.apply", lang), exact: true }).click();
    await expect(page.locator("#promo_code-error")).toHaveText(shop("checkout.promo.unknown", lang));
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveValue("NOSUCH");
    expect(await seriousViolations(page)).toEqual([]);

    await field.fill(code);
    await page.getByRole("button", { name: shop("checkout.promo.apply", lang), exact: true }).click();
    await expect(total).toHaveText(formatMoney(4_250 + TRIPOLI_FEE - 425, lang));
    await page.getByRole("button", { name: shop("checkout.submit", lang) }).click();
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/pay/`));
    expect((await emulator.payments(request)).map((payment) => payment.amount)).toEqual(["48.25"]);
  });
}
