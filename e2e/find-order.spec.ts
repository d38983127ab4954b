import type { Browser } from "@playwright/test";
import { newOrderId } from "../lib/ids";
import type { CaughtSms } from "../scripts/sms-centre";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "../lib/db/schema";
import { formAsShown, getPage, textOf } from "../testing/no-js-shop";
import { database, expect, seriousViolations, shop, stack, test, type Lang } from "./support";

/**
 * Find my order by phone (app/(shop)/orders/find, lib/orders/lookup.ts) in a browser, in each language: a customer
 * who paid from another browser (the order is written to the database as a checkout leaves it) gives the order number and a phone that is not a Libyan mobile (told so on its
 * field), then another customer's phone (the same answer as the right one, and no text), then the order's own phone,
 * reads the code in the stack's SMS centre, and lands on the order's page as its signed link shows it. The rules
 * behind it (budgets, expiry, tries, one use) are lib/orders/lookup.test.ts's. Both forms pass axe on the way.
 */

/** A Libyan mobile no other test uses, so no other test's budget or text is in the way. */
const newPhone = () => `092${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

/** A client address of its own for each test (the stack's shop trusts one proxy), so no run shares a budget. */
const newAddress = () => `198.51.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

/** A form's fields as a browser posts them. */
const formData = (fields: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};

/** The messages the stack's SMS centre holds for `phone` (local form). */
async function textsTo(phone: string): Promise<CaughtSms[]> {
  const response = await fetch(`${stack().smsInboxUrl}/api/sms`);
  const messages = (await response.json()) as CaughtSms[];
  return messages.filter((message) => message.to === `218${phone.slice(1)}`);
}

async function findOrder(browser: Browser, lang: Lang) {
  const phone = newPhone();
  const orderId = newOrderId();
  // A paid order as a checkout in `lang` leaves it (paying through the emulator would double the test's time).
  await database((pool) =>
    drizzle(pool, { schema, casing: "snake_case" })
      .insert(schema.orders)
      .values({
        id: orderId,
        sessionId: "another-browser",
        fingerprint: orderId,
        status: "paid",
        amountMinor: 3_500,
        currency: "LYD",
        locale: lang,
        phone,
        paymentToken: `pt-${orderId}`,
        claimExpiresAt: new Date(),
      }),
  );

  // Another device, no cookie of the shop's, at an address of its own.
  const context = await browser.newContext({
    locale: lang === "ar" ? "ar-LY" : "en-US",
    extraHTTPHeaders: { "x-forwarded-for": newAddress() },
  });
  const page = await context.newPage();
  await page.goto(`${stack().shopUrl}/orders/find`);
  await expect(page.locator("html")).toHaveAttribute("dir", lang === "ar" ? "rtl" : "ltr");
  await expect(page.getByRole("heading", { name: shop("findOrder.title", lang) })).toBeVisible();
  const ask = async (typedPhone: string) => {
    await page.getByLabel(shop("findOrder.orderNumber", lang)).fill(orderId);
    await page.getByLabel(shop("findOrder.phone", lang)).fill(typedPhone);
    await page.getByRole("button", { name: shop("findOrder.submit", lang) }).click();
  };

  // A Tripoli landline is no Libyan mobile: said on its field, the order number kept.
  await ask("021 234 5678");
  await expect(page.getByText(shop("findOrder.errors.phone", lang))).toBeVisible();
  await expect(page.getByLabel(shop("findOrder.orderNumber", lang))).toHaveValue(orderId);
  expect(await seriousViolations(page), "the form with an error").toEqual([]);

  // Another customer's phone is answered as the order's own is.
  const stranger = newPhone();
  await ask(stranger);
  const sent = page.getByTestId("find-order-sent");
  await expect(sent).toBeVisible();
  const answer = await sent.innerText();
  expect(await seriousViolations(page), "the code's form").toEqual([]);
  await page.getByRole("link", { name: shop("findOrder.again", lang) }).click();
  await ask(`+218 ${phone.slice(1, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`);
  await expect(sent).toHaveText(answer);

  // The code reaches the order's phone, in the order's language; the stranger's phone got nothing.
  let texts: CaughtSms[] = [];
  await test.step("the text", () =>
    expect.poll(async () => (texts = await textsTo(phone)).length, { timeout: 10_000 }).toBe(1));
  const text = texts[0]!.text;
  expect(text).toContain(lang === "ar" ? "رمزك" : "your code is");
  expect(await textsTo(stranger)).toEqual([]);

  await page.getByLabel(shop("findOrder.code", lang)).fill(/\d{6}/.exec(text)![0]);
  await page.getByRole("button", { name: shop("findOrder.codeSubmit", lang) }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}\\?key=[\\w-]{43}$`));
  await expect(page.getByText(shop("order.heading", lang).replace("{id}", orderId))).toBeVisible();
  await expect(page.getByRole("heading", { name: shop("order.status.paid.title", lang) })).toBeVisible();
  await context.close();
}

test("a customer finds a paid order by its phone, in English", async ({ browser }) => {
  await findOrder(browser, "en");
});

test("a customer finds a paid order by its phone, in Arabic", async ({ browser }) => {
  await findOrder(browser, "ar");
});

test("without JavaScript, a malformed order number is said on its field, and the 21st request from one address in an hour is refused with the wait", async () => {
  const page = `${stack().shopUrl}/orders/find`;
  const form = await getPage(page);
  const address = newAddress();
  /** The form posted from one address (the shop trusts one proxy): where the answer sends the browser. */
  const ask = async (order: string, phone: string) => {
    const response = await fetch(page, {
      method: "POST",
      body: formData(formAsShown(form, "order", { order, phone })),
      headers: { Origin: stack().shopUrl, "X-Forwarded-For": address },
      redirect: "manual",
    });
    await response.arrayBuffer();
    return response.headers.get("location");
  };
  const location = await ask("ord_123", newPhone());
  expect(location).toBe("/orders/find?error=orderNumber");
  expect(textOf(await getPage(new URL(location!, page).href), "#order-error")).toBe(
    shop("findOrder.errors.orderNumber"),
  );
  for (let i = 0; i < 20; i++) expect(await ask(newOrderId(), newPhone())).toBe("/orders/find?sent=1");
  const refused = await ask(newOrderId(), newPhone());
  expect(refused).toBe("/orders/find?error=limited&minutes=60");
  expect(textOf(await getPage(new URL(refused!, page).href), "[role=alert]")).toBe(
    "Too many tries. Wait 60 minutes and try again.",
  );
});
