import type { Browser } from "@playwright/test";
import type { CaughtSms } from "../scripts/sms-centre";
import { placePaidOrder } from "../testing/no-js-shop";
import { emulator, expect, seriousViolations, shop, stack, test, type Lang } from "./support";

/**
 * Find my order by phone (app/(shop)/orders/find, lib/orders/lookup.ts) in a browser, in each language: a customer
 * who paid from another browser gives the order number and a phone that is not a Libyan mobile (told so on its
 * field), then another customer's phone (the same answer as the right one, and no text), then the order's own phone,
 * reads the code in the stack's SMS centre, and lands on the order's page as its signed link shows it. The rules
 * behind it (budgets, expiry, tries, one use) are lib/orders/lookup.test.ts's. Both forms pass axe on the way.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/** A Libyan mobile no other test uses, so no other test's budget or text is in the way. */
const newPhone = () => `092${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

/** The messages the stack's SMS centre holds for `phone` (local form). */
async function textsTo(phone: string): Promise<CaughtSms[]> {
  const response = await fetch(`${stack().smsInboxUrl}/api/sms`);
  const messages = (await response.json()) as CaughtSms[];
  return messages.filter((message) => message.to === `218${phone.slice(1)}`);
}

async function findOrder(browser: Browser, lang: Lang, address: string) {
  const phone = newPhone();
  const details = { full_name: "Salem Ali", phone, payment_gateway: "sadad" };
  const paid = await placePaidOrder(stack().shopUrl, stack().emulatorUrl, { details, lang });
  const orderId = /ord_[0-9a-z]{16}/.exec(paid.orderPath)![0];

  // Another device, no cookie of the shop's; a client at an address of its own (the stack's shop trusts one proxy).
  const context = await browser.newContext({
    locale: lang === "ar" ? "ar-LY" : "en-US",
    extraHTTPHeaders: { "x-forwarded-for": address },
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
  await expect.poll(async () => (texts = await textsTo(phone)).length, { timeout: 10_000 }).toBe(1);
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
  await findOrder(browser, "en", "198.51.100.43");
});

test("a customer finds a paid order by its phone, in Arabic", async ({ browser }) => {
  await findOrder(browser, "ar", "198.51.100.44");
});
