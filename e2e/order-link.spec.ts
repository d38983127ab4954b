import { browse, placePaidOrder, textsOf } from "../testing/no-js-shop";
import { database, emulator, expect, mailbox, shop, stack, test } from "./support";

/**
 * The receipt's signed link (lib/orders/order-link.ts), end to end: a customer pays, the receipt reaches the mail
 * catcher, and its link opens the order in another browser (no cookies, in Arabic) without the customer's details;
 * a changed character is "not found" (404). Opening it writes nothing. The customer buys as a browser without
 * JavaScript does (testing/no-js-shop.ts); the link is opened in Chromium, as the order's not-found page is drawn by
 * its script.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

const CUSTOMER = { full_name: "Aisha Ben Ali", phone: "0912345678" };

/** The order's events and its row as stored: what opening its page must leave as it was. */
const stored = (orderId: string) =>
  database(async (pool) => {
    const events = await pool.query("select type from order_events where order_id = $1 order by id", [orderId]);
    const order = await pool.query("select status, updated_at from orders where id = $1", [orderId]);
    return { events: events.rows, order: order.rows[0] };
  });

test("the receipt's link opens the paid order in a fresh browser, without the customer's details; a changed character is 404", async ({
  browser,
  request,
}) => {
  const email = `link-${Date.now()}@example.ly`;
  const details = { ...CUSTOMER, email, payment_gateway: "sadad" };
  const paid = await placePaidOrder(stack().shopUrl, stack().emulatorUrl, { quantity: 2, details });
  const orderPage = await browse(new URL(paid.orderPath, stack().shopUrl).href, paid.cookie);
  expect(textsOf(orderPage.html, "h1, h2")).toContain(shop("order.status.paid.title"));
  const orderId = new URL(orderPage.url).pathname.split("/").pop()!;

  const receipt = (await mailbox.waitFor(request, orderId, 2)).find((mail) => mail.to[0]?.address === email)!;
  const link = new RegExp(`${stack().env.SITE_URL}/orders/${orderId}\\?key=[\\w-]{43}`).exec(receipt.text)?.[0];
  expect(link, receipt.text).toBeDefined();
  const before = await stored(orderId);

  // Another device: no cookie of the shop's, another language.
  const elsewhere = await browser.newContext({ locale: "ar-LY" });
  const other = await elsewhere.newPage();
  expect((await other.goto(link!))?.status()).toBe(200);
  await expect(other.getByRole("heading", { name: shop("order.status.paid.title", "ar") })).toBeVisible();
  await expect(other.getByText(shop("order.heading", "ar").replace("{id}", orderId))).toBeVisible();
  await expect(other.getByText("Olive oil")).toBeVisible();
  // A link may be forwarded: nothing on the page names or reaches the customer, and the owner's actions are not there.
  const text = await other.locator("body").innerText();
  for (const personal of [CUSTOMER.full_name, CUSTOMER.phone, email]) expect(text).not.toContain(personal);
  const html = await other.content(); // the page's data for React too
  for (const personal of [CUSTOMER.full_name, CUSTOMER.phone, email]) expect(html).not.toContain(personal);
  await expect(other.getByRole("button", { name: shop("order.buyAgain", "ar") })).toHaveCount(0);

  // A changed character, a truncated signature, another order's id: the same "not found" as any unknown order.
  const key = new URL(link!).searchParams.get("key")!;
  const changed = `${key.slice(0, 20)}${key[20] === "A" ? "B" : "A"}${key.slice(21)}`;
  for (const wrong of [
    `/orders/${orderId}?key=${changed}`,
    `/orders/${orderId}?key=${key.slice(0, 42)}`,
    `/orders/ord_0000000000000000?key=${key}`,
  ]) {
    expect((await other.goto(wrong))?.status(), wrong).toBe(404);
    await expect(other.getByRole("heading", { name: shop("order.notFoundTitle", "ar") })).toBeVisible();
    await expect(other.getByText("Olive oil")).toHaveCount(0);
  }

  // Pages read: the order and its history are as they were, and the other browser got no session.
  expect(await stored(orderId)).toEqual(before);
  expect((await elsewhere.cookies()).map((cookie) => cookie.name)).not.toContain("shop_session");
  await elsewhere.close();
});
