import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import axe from "axe-core";
import { expect, test as base, type APIRequestContext, type Page } from "@playwright/test";
import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import * as schema from "../lib/db/schema";
import { quickAdmin } from "../testing/admins";
import { stackOfWorker, type Stack } from "./stacks";

/**
 * Playwright's `test`, with each worker's `baseURL` its own shop (e2e/stacks.ts). Specs import `test` and `expect`
 * from here.
 */
export const test = base.extend({
  baseURL: async ({}, provide, testInfo) => provide(stackOfWorker(testInfo.project, testInfo.parallelIndex).shopUrl),
});
export { expect };

/** The servers of the running test's worker: its shop, emulator, mail catcher and database. */
export function stack(): Stack {
  const info = test.info();
  return stackOfWorker(info.project, info.parallelIndex);
}

export type Lang = "en" | "ar";

type Tree = { [key: string]: string | Tree };
const catalogues: Record<Lang, Tree> = {
  en: JSON.parse(readFileSync("lib/i18n/messages/en.json", "utf8")),
  ar: JSON.parse(readFileSync("lib/i18n/messages/ar.json", "utf8")),
};

/** The language of the running project (its browser locale sends the matching Accept-Language). */
export function currentLang(): Lang {
  return test.info().project.use.locale?.startsWith("ar") ? "ar" : "en";
}

/** The shop's text for a message key in the current project's language, e.g. `shop("checkout.submit")`. */
export function shop(key: string, lang: Lang = currentLang()): string {
  const value = key
    .split(".")
    .reduce<string | Tree | undefined>(
      (node, part) => (typeof node === "object" ? node[part] : undefined),
      catalogues[lang],
    );
  if (typeof value !== "string") throw new Error(`no message ${key}`);
  return value;
}

/** The emulator's payment page texts (emulator/i18n.ts), which follow the shop's language. */
export function paymentPage(lang: Lang = currentLang()) {
  return lang === "ar"
    ? { pay: "ادفع", decline: "رفض", cancel: "إلغاء", continue: /^(متابعة|المتابعة)/ }
    : { pay: "Pay", decline: "Decline", cancel: "Cancel", continue: /^Continue/ };
}

/**
 * The worker's emulator and its control API (emulator/README.md), for arranging faults and checking what the service
 * holds.
 */
export const emulator = {
  async reset(request: APIRequestContext) {
    expect((await request.post(`${stack().emulatorUrl}/__emulator/reset`)).ok()).toBe(true);
  },
  async payments(request: APIRequestContext): Promise<
    {
      token: string;
      status: string;
      amount: string;
      custom?: string;
      payment_gateway?: string;
      lang?: string;
      return_url?: string;
      cancel_url?: string;
    }[]
  > {
    const response = await request.get(`${stack().emulatorUrl}/__emulator/payments`);
    expect(response.ok()).toBe(true);
    return (await response.json()).payments;
  },
  async fault(
    request: APIRequestContext,
    fault: {
      route: "token" | "create" | "webhook";
      kind: string;
      status?: number;
      delayMs?: number;
      amount?: number;
      count?: number;
    },
  ) {
    expect((await request.post(`${stack().emulatorUrl}/__emulator/faults`, { data: fault })).ok()).toBe(true);
  },
  /** The webhook deliveries the emulator made for a payment token, newest first. */
  async webhooks(
    request: APIRequestContext,
    token: string,
  ): Promise<{ id: number; state: string; body: string; signature: string; attempts: { status: number | null }[] }[]> {
    const response = await request.get(`${stack().emulatorUrl}/__emulator/webhooks?token=${encodeURIComponent(token)}`);
    expect(response.ok()).toBe(true);
    return (await response.json()).deliveries;
  },
};

/** An e-mail as MailDev kept it (its REST API, `GET /api/email`). */
export interface CaughtEmail {
  id: string;
  subject: string;
  to: { address: string; name: string }[];
  from: { address: string; name: string }[];
  html: string;
  text: string;
  headers: Record<string, string>;
}

/** The mail catcher's inbox (started by e2e/global-setup.ts): every e-mail the shop sent during the run. */
export const mailbox = {
  /** Every e-mail about one order (its number is in every subject the shop writes). */
  async about(request: APIRequestContext, orderId: string): Promise<CaughtEmail[]> {
    const response = await request.get(`${stack().mailInboxUrl}/api/email`);
    expect(response.ok()).toBe(true);
    return ((await response.json()) as CaughtEmail[]).filter((email) => email.subject.includes(orderId));
  },
  /** Waits until `count` e-mails about the order have arrived, and returns them. */
  async waitFor(request: APIRequestContext, orderId: string, count: number): Promise<CaughtEmail[]> {
    let emails: CaughtEmail[] = [];
    await expect
      .poll(async () => (emails = await mailbox.about(request, orderId)).length, { timeout: 15_000, intervals: [100] })
      .toBe(count);
    return emails;
  },
  /** Waits until an e-mail to `address` has arrived, and returns the newest. */
  async latestTo(request: APIRequestContext, address: string): Promise<CaughtEmail> {
    let emails: CaughtEmail[] = [];
    await expect
      .poll(
        async () => {
          const response = await request.get(`${stack().mailInboxUrl}/api/email`);
          expect(response.ok()).toBe(true);
          emails = ((await response.json()) as CaughtEmail[]).filter((email) =>
            email.to.some((to) => to.address === address),
          );
          return emails.length;
        },
        { timeout: 15_000, intervals: [100] },
      )
      .toBeGreaterThan(0);
    return emails[emails.length - 1]!;
  },
  /** The HTML of one e-mail as MailDev serves it for display. */
  async html(request: APIRequestContext, id: string): Promise<string> {
    const response = await request.get(`${stack().mailInboxUrl}/api/email/${id}/html`);
    expect(response.ok()).toBe(true);
    return response.text();
  },
};

/**
 * The shop's database, for what a browser cannot see (the events recorded) and for time travel (an access token
 * issued eleven minutes ago): the one place the browser tests reach past the shop's pages.
 */
export async function database<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = new Pool({ connectionString: stack().databaseUrl, max: 1 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/** Opens a product page and adds `quantity` of it to the cart. */
export async function addToCart(page: Page, slug: string, quantity = 1, lang: Lang = currentLang()) {
  await page.goto(`/products/${slug}`);
  await page.getByLabel(shop("product.quantity", lang)).fill(String(quantity));
  await page.getByRole("button", { name: shop("product.add", lang) }).click();
  await expect(page.getByText(shop("product.added", lang))).toBeVisible();
}

/** The number in the header's cart badge. */
export async function cartCount(page: Page): Promise<number> {
  return Number(await page.getByTestId("cart-count").textContent());
}

/** The phone and address the checkout helpers give a delivery when a test names none. */
const TEST_PHONE = "0912345678";
const TEST_ADDRESS = "Gargaresh Street, building 12";

/** How a test's checkout of goods is delivered: to a city (Tripoli unless named), by pickup, or left blank. */
export type DeliveryChoice =
  { city?: string; address?: string; landmark?: string; second_phone?: string } | "pickup" | "blank";

/**
 * Fills the checkout's customer fields; `gateway` is the picker's display name. When the cart holds goods (the page
 * shows the delivery fieldset), also chooses the delivery — by default to Tripoli at {@link TEST_ADDRESS} — and gives
 * the phone it requires ({@link TEST_PHONE}) unless the test gives one; `delivery: "blank"` leaves all of it empty.
 */
export async function fillCheckout(
  page: Page,
  details: { full_name?: string; email?: string; phone?: string; gateway?: string; delivery?: DeliveryChoice },
  lang: Lang = currentLang(),
) {
  const { delivery = {} } = details;
  const goods = delivery !== "blank" && (await page.getByTestId("delivery-fieldset").count()) > 0;
  const phone = details.phone ?? (goods ? TEST_PHONE : undefined);
  if (details.full_name !== undefined) await page.getByLabel(shop("checkout.fullName", lang)).fill(details.full_name);
  if (details.email !== undefined) await page.getByLabel(shop("checkout.email", lang)).fill(details.email);
  if (phone !== undefined) await page.getByLabel(shop("checkout.phone", lang)).fill(phone);
  if (goods && delivery === "pickup") await page.getByRole("radio", { name: shop("checkout.pickup", lang) }).check();
  else if (goods && typeof delivery === "object") {
    await page.getByRole("radio", { name: shop("checkout.deliverTo", lang) }).check();
    await chooseCity(page, delivery.city ?? (lang === "ar" ? "طرابلس" : "Tripoli"), lang);
    await page.getByLabel(shop("checkout.address", lang)).fill(delivery.address ?? TEST_ADDRESS);
    if (delivery.landmark !== undefined) await page.getByLabel(shop("checkout.landmark", lang)).fill(delivery.landmark);
    if (delivery.second_phone !== undefined)
      await page.getByLabel(shop("checkout.secondPhone", lang)).fill(delivery.second_phone);
  }
  if (details.gateway !== undefined) await page.getByRole("radio", { name: details.gateway }).check();
}

/** Chooses a delivery city on the checkout form by its name in the page's language (the option also shows its fee). */
export async function chooseCity(page: Page, city: string, lang: Lang = currentLang()) {
  const select = page.getByLabel(shop("checkout.city", lang));
  const value = await select.locator("option", { hasText: city }).first().getAttribute("value");
  await select.selectOption(value!);
}

/** Submits the checkout form. */
export async function submitCheckout(page: Page) {
  await page.getByRole("button", { name: shop("checkout.submit") }).click();
}

/**
 * Creates (or resets) a back-office admin in the worker's database as the admin command does (the owner, OWNER in
 * e2e/stacks.ts, is made by the command itself), with a quick password hash (testing/admins.ts): for the tests that sign
 * in to use the back office, not to test the hash.
 */
export async function createAdmin(email: string, password: string): Promise<void> {
  await database((pool) => quickAdmin(drizzle(pool, { schema, casing: "snake_case" }), email, password));
}

/** Signs in on /admin/sign-in in the current language (`lang`), and waits for the back office's home. */
export async function signInAsAdmin(page: Page, email: string, password: string, lang: Lang = currentLang()) {
  await page.goto("/admin/sign-in");
  await page.getByLabel(shop("admin.signIn.email", lang)).fill(email);
  await page.getByLabel(shop("admin.signIn.password", lang)).fill(password);
  await page.getByRole("button", { name: shop("admin.signIn.submit", lang) }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/**
 * axe-core's minified build, put into every page checked: `axe.source` is the readable one, 1.3 MB against 0.6 MB,
 * and took a fifth longer to send to the page and run (390 against 330 ms a page on a loaded machine).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** What axe checks: WCAG 2.1 A and AA. Only violations are read, so axe keeps one node, not all, of every other result. */
const AXE_OPTIONS = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  resultTypes: ["violations"],
} satisfies axe.RunOptions;

/**
 * axe on the page as it is now (WCAG 2.1 A and AA): its serious and critical violations, each as
 * `rule (impact): selectors`; empty when there is none.
 *
 * `phoneAfterDesktop`: the same page, just checked at a desktop's width, now at a phone's. Colour contrast, two thirds
 * of axe's time, is then checked only on what a phone shows and a desktop hides (Tailwind's `sm:hidden`, the back
 * office's PHONE_ONLY in components/admin/table.tsx): no colour or background class of the app changes at a
 * breakpoint, so every other text has the colours it had at the desktop's width. The other rules run on the whole page
 * again, as the layout (a table that scrolls sideways, what is hidden) does change with the width.
 *
 * axe-core runs in the page itself, put there once per document: a page checked at a second width (a11y.spec.ts) uses
 * it again. Parsing axe's half a megabyte anew for every analysis, as `@axe-core/playwright` does, was 60 % of each
 * analysis's time. axe does not look into frames of another origin; the shop and the payment pages have none, and a
 * page that gets one fails here, not silently unchecked.
 */
export async function seriousViolations(page: Page, { phoneAfterDesktop = false } = {}): Promise<string[]> {
  expect(
    page.frames().map((frame) => frame.url()),
    "frames axe would not look into",
  ).toEqual([page.url()]);
  // After a client-side navigation (a server action's redirect), Next.js streams the new page's metadata after its
  // content: for a moment the document has no <title>, and axe found "document-title" on a page that then had one. So
  // axe reads the page once it has its title; a page whose title never comes fails here.
  await expect(page, "the page's <title>").toHaveTitle(/\S/);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ options, phoneAfterDesktop }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      if (!phoneAfterDesktop) return (await axe.run(document, options)).violations;
      const rest = await axe.run(document, { ...options, rules: { "color-contrast": { enabled: false } } });
      const phoneOnly = document.querySelectorAll(".sm\\:hidden");
      if (phoneOnly.length === 0) return rest.violations;
      const contrast = await axe.run(phoneOnly, { ...options, runOnly: { type: "rule", values: ["color-contrast"] } });
      return [...rest.violations, ...contrast.violations];
    },
    { options: AXE_OPTIONS, phoneAfterDesktop },
  );
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
