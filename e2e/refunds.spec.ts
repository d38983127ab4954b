import { formatMoney, toWireAmount, westernDigits } from "../lib/money";
import {
  adminCookie,
  formAsShown,
  getPage,
  parseHtml,
  placePaidOrder,
  postForm,
  select,
  textOf,
} from "../testing/no-js-shop";
import { createAdmin, database, emulator, expect, mailbox, shop, stack, test } from "./support";

/**
 * After the sale, in both languages, as the merchant's and the customer's browsers without JavaScript drive it
 * (testing/no-js-shop.ts; the forms are plain posts to the real server): a paid order cancelled from its page — a
 * refused post first says what is wrong on its field and keeps what was typed —, its refund to make on the home, then
 * recorded with the service dashboard's reference (twice, as from two tabs: once); the customer's e-mails and order
 * page say cancelled and refunded, and the home's list of refunds to make no longer has it.
 */

const ADMIN = { email: "refund-admin@medina.example", password: "refund-admin-password-1" };

/** A text with its spaces (the no-break ones of an amount too) run together. */
const spaced = (text: string) => text.replace(/\s+/g, " ").trim();

/** The text of the element `testId` of `html` as a reader sees it, or "" when there is none. */
const shown = (html: string, testId: string) => spaced(textOf(html, `[data-testid="${testId}"]`) ?? "");

/** The links of the home's "Refunds to make" panel. */
const refundsToMake = (home: string) =>
  select('section[aria-labelledby="refunds-to-make"] a[href]', parseHtml(home)).map((link) => link.attribs.href);

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

for (const lang of ["en", "ar"] as const) {
  test(`a paid order cancelled (${lang}): a refund to make on the home, recorded with its reference once; the customer's e-mails and order page say so`, async ({
    request,
  }) => {
    const base = stack().shopUrl;
    await createAdmin(ADMIN.email, ADMIN.password);
    const customer = `refund-${lang}-${Date.now()}@example.ly`;
    const placed = await placePaidOrder(base, stack().emulatorUrl, {
      lang,
      details: { full_name: "Aisha Ben Ali", email: customer, payment_gateway: "sadad" },
    });
    const orderUrl = new URL(placed.orderPath, base);
    const orderId = orderUrl.pathname.split("/").pop()!;
    const customerPage = () => getPage(`${base}/orders/${orderId}`, placed.cookie, 200, lang);
    expect(textOf(await customerPage(), "h1")).toBe(shop("order.status.paid.title", lang));
    const { amount_minor: paidMinor } = await database(
      async (pool) =>
        (await pool.query<{ amount_minor: number }>("select amount_minor from orders where id = $1", [orderId]))
          .rows[0]!,
    );
    await mailbox.waitFor(request, orderId, 2); // the receipt and the merchant's notice

    const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
    const adminUrl = `${base}/admin/orders/${orderId}`;
    /**
     * The home for today: the orders its refunds to make lead to, and its sales net of refunds in minor units (written
     * with two decimals, in either digits).
     */
    const home = async () => {
      const html = await getPage(`${base}/admin?period=today`, admin, 200, lang);
      const net = westernDigits(textOf(html, '[data-testid="figure-net"]') ?? "").replace(/\D/g, "");
      return { refundsToMake: refundsToMake(html), netMinor: Number(net) };
    };
    let page = await getPage(adminUrl, admin, 200, lang);
    // The refund form offers what is left: all of it.
    expect(select('[data-testid="refund-form"] input[name="amount"]', parseHtml(page))[0]?.attribs.value).toBe(
      toWireAmount(paidMinor),
    );

    // Cancel without a reason: refused on the reason's field, the note kept, nothing changed.
    const note = lang === "ar" ? "اتصلت العميلة وطلبت الإلغاء" : "She called to cancel";
    const refused = await postForm(adminUrl, formAsShown(page, "reason", { note }), admin, lang);
    expect(refused.status).toBe(200);
    expect(shown(refused.html, "cancel-form-error")).toContain(shop("admin.afterSale.problems.reason", lang));
    expect(textOf(refused.html, '[data-testid="cancel-form"] textarea[name="note"]')).toBe(note);

    // Cancelled, the customer e-mailed (the box comes ticked); the same form posted again from a second tab: once.
    const cancel = formAsShown(page, "reason", { reason: "customer_asked", note });
    const cancelled = await postForm(adminUrl, cancel, admin, lang);
    expect(cancelled.status).toBe(303);
    page = await getPage(new URL(cancelled.location!, base).href, admin, 200, lang);
    expect(shown(page, "order-result")).toContain(shop("admin.afterSale.results.order_cancelled", lang));
    const again = await postForm(adminUrl, cancel, admin, lang);
    expect(again.location).toContain("result=cancel_already");
    expect(shown(page, "order-timeline")).toContain(
      shop("admin.events.order_cancelled", lang).replace("{by}", ADMIN.email),
    );

    // The home's refunds to make lead to the order; the customer's page says a refund is on its way.
    const before = await home();
    expect(before.refundsToMake).toContain(`/admin/orders/${orderId}`);
    expect(shown(await customerPage(), "order-refund")).toBe(
      spaced(shop("order.afterSale.refundPending", lang).replace("{amount}", formatMoney(paidMinor, lang))),
    );

    // Recorded without a reference: refused on its field. With the dashboard's reference: recorded, and posted again
    // (a second tab), already.
    expect(shown(page, "admin-refunds")).toContain(shop("admin.afterSale.refunds.statuses.pending", lang));
    const noReference = await postForm(adminUrl, formAsShown(page, "refund", { reference: " " }), admin, lang);
    expect(noReference.status).toBe(200);
    expect(noReference.html).toContain(shop("admin.afterSale.problems.referenceMissing", lang));
    const record = formAsShown(page, "refund", { reference: `RF-${lang}-20931` });
    const recorded = await postForm(adminUrl, record, admin, lang);
    expect(recorded.status).toBe(303);
    expect(recorded.location).toContain("result=refund_recorded&emailed=1");
    expect((await postForm(adminUrl, record, admin, lang)).location).toContain("result=refund_already");
    page = await getPage(adminUrl, admin, 200, lang);
    expect(shown(page, "admin-refunds")).toContain(`RF-${lang}-20931`);
    expect(shown(page, "admin-order-status")).toContain(shop("admin.afterSale.standing.refunded", lang));
    expect(
      await database(
        async (pool) =>
          (
            await pool.query(
              "select o.refunded_minor, r.status, r.reference from orders o join refunds r on r.order_id = o.id where o.id = $1",
              [orderId],
            )
          ).rows,
      ),
    ).toEqual([{ refunded_minor: paidMinor, status: "refunded", reference: `RF-${lang}-20931` }]);
    // The home: no longer a refund to make; today's sales net of refunds less the refund (the sale stays a sale).
    const after = await home();
    expect(after.refundsToMake).not.toContain(`/admin/orders/${orderId}`);
    expect(after.netMinor).toBe(before.netMinor - paidMinor);

    // The customer: one e-mail that the order is cancelled and one that they were refunded, in their language; the
    // order page says cancelled, with its date, and refunded, how much; the same through the receipt's signed link.
    const emails = await mailbox.waitFor(request, orderId, 4);
    const paid = formatMoney(paidMinor, lang);
    const news = emails.filter((email) => email.to.some((to) => to.address === customer)).slice(1);
    expect(spaced(news.map((email) => email.subject).join(" | "))).toBe(
      spaced(
        [
          shop("email.afterSale.cancelledSubject", lang).replace("{id}", orderId),
          shop("email.afterSale.refundedSubject", lang).replace("{id}", orderId).replace("{amount}", paid),
        ].join(" | "),
      ),
    );
    for (const email of news) expect(email.html).toMatch(new RegExp(`<html[^>]* lang="${lang}"`));
    for (const html of [await customerPage(), await getPage(signedLink(emails, orderId), "", 200, lang)]) {
      expect(textOf(html, "h1")).toBe(shop("order.afterSale.cancelled.title", lang));
      expect(shown(html, "order-refund")).toBe(
        spaced(shop("order.afterSale.refunded", lang).replace("{amount}", formatMoney(paidMinor, lang))),
      );
    }
  });
}

/** The order's signed link (lib/orders/order-link.ts) as the receipt gives it. */
function signedLink(emails: { text: string }[], orderId: string): string {
  for (const email of emails) {
    const link = new RegExp(`https?://[^\\s]+/orders/${orderId}\\?key=[\\w-]{43}`).exec(email.text)?.[0];
    if (link) return new URL(new URL(link).pathname + new URL(link).search, stack().shopUrl).href;
  }
  throw new Error("no e-mail about the order has its signed link");
}

/**
 * A paid delivery of 3 units of a product of its own, delivered: the order a return starts from. @returns its id and
 * the product's.
 */
async function storeDelivered(customer: string): Promise<{ id: string; productId: number }> {
  // An order id as the shop makes them (base-32 without i, l, o, u); lib/orders/store.ts is the server's only.
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  const id = `ord_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => alphabet[byte % 32]).join("")}`;
  const productId = await database(async (pool) => {
    const product = await pool.query<{ id: number }>(
      `insert into products (slug, name_en, name_ar, price_minor, stock) values ($1, 'Clay tagine', 'طاجين فخار', 3000, 4)
       returning id`,
      [`tagine-${id.slice(4, 12)}`],
    );
    const { rows } = await pool.query("select id, fee_minor from delivery_zones where name_en = 'Tripoli'");
    await pool.query(
      `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, email, phone,
         payment_token, payment_url, payment_expires_at, claim_expires_at, paid_at, paid_gateway, delivery_method,
         delivery_zone_id, delivery_city_en, delivery_city_ar, delivery_address, delivery_fee_minor, fulfilment,
         fulfilled_at)
       values ($1, 'e2e', $1, 'paid', 9000 + $4, 'LYD', 'en', 'Salem Ali', $2, '+218912345678', 'pt-' || $1,
         'https://pay.example.ly/x', now() + interval '10 minutes', now(), now(), 'sadad', 'delivery', $3, 'Tripoli',
         'طرابلس', 'Gargaresh, Street 12', $4, 'delivered', now())`,
      [id, customer, rows[0].id, rows[0].fee_minor],
    );
    await pool.query(
      `insert into order_lines (order_id, position, product_id, product_slug, name, unit_minor, quantity)
       values ($1, 0, $2, 'tagine', 'Clay tagine', 3000, 3)`,
      [id, product.rows[0]!.id],
    );
    return product.rows[0]!.id;
  });
  return { id, productId };
}

test("a delivered order's return without JavaScript: more than was sold refused on its line, then one unit back in the stock and 30 LYD refunded, once however often it is posted", async () => {
  const base = stack().shopUrl;
  await createAdmin(ADMIN.email, ADMIN.password);
  const { id, productId } = await storeDelivered(`return-${Date.now()}@example.ly`);
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const adminUrl = `${base}/admin/orders/${id}`;
  const page = await getPage(adminUrl, admin);
  const stock = () =>
    database(
      async (pool) =>
        (await pool.query<{ stock: number }>("select stock from products where id = $1", [productId])).rows[0]!.stock,
    );

  // A refund for more units than the line sold: refused on that line, the amount kept.
  const tooMany = await postForm(adminUrl, formAsShown(page, "amount", { amount: "12.50", line_0: "4" }), admin);
  expect(tooMany.status).toBe(200);
  expect(shown(tooMany.html, "refund-form-error")).toContain(
    shop("admin.afterSale.problems.lineOver", "en").replace("{max}", "3"),
  );
  expect(select('[data-testid="refund-form"] input[name="amount"]', parseHtml(tooMany.html))[0]?.attribs.value).toBe(
    "12.50",
  );

  // Four back of a line that sold three: refused on its line; nothing back in the stock.
  const refused = await postForm(adminUrl, formAsShown(page, "back_0", { back_0: "4", refund: "30" }), admin);
  expect(refused.status).toBe(200);
  expect(shown(refused.html, "return-form-error")).toContain(
    shop("admin.afterSale.problems.lineOver", "en").replace("{max}", "3"),
  );
  expect(await stock()).toBe(4);

  // One back, into the stock (the box comes ticked), with a refund of 30 LYD and its reference: posted twice.
  const form = formAsShown(page, "back_0", { back_0: "1", refund: "30.00", reference: "RF-RETURN-1" });
  const returned = await postForm(adminUrl, form, admin);
  expect(returned.location).toContain("result=return_recorded");
  expect((await postForm(adminUrl, form, admin)).location).toContain("result=return_already");
  expect(await stock()).toBe(5);
  const after = await getPage(adminUrl, admin);
  expect(shown(after, "admin-refunds")).toContain("RF-RETURN-1");
  expect(shown(after, "admin-order-status")).toContain(shop("admin.afterSale.standing.partly_refunded", "en"));
  expect(shown(after, "order-timeline")).toContain(
    shop("admin.events.order_returned", "en").replace("{by}", ADMIN.email),
  );
});
