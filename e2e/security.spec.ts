import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Page } from "@playwright/test";
import {
  addToCart as addByForm,
  browse,
  payAtEmulator,
  returnToShop,
  startPayment as startPaymentByForm,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import { addToCart, emulator, expect, fillCheckout, stack, test } from "./support";
import { E2E_SECRETS } from "./stacks";

/**
 * What a customer's browser may be made to send: return and cancel URLs, order ids and session cookies that are not
 * its own. Most of it is posted and read as a browser without JavaScript does (testing/no-js-shop.ts); the answer is
 * the page the customer would see.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/** A customer with two saffron in the cart, sent to the payment page. */
const startPayment = () =>
  startPaymentByForm(stack().shopUrl, stack().emulatorUrl, {
    slug: "saffron",
    quantity: 2,
    details: { full_name: "Salem Fathi" },
  });

/** Opens a shop path as the browser holding `cookie` (none: a stranger's browser) does, redirects followed. */
const open = (path: string, cookie = "") => browse(new URL(path, stack().shopUrl).href, cookie);
const heading = (html: string) => textOf(html, "h1");
const cartCount = async (cookie: string) => textOf((await open("/cart", cookie)).html, '[data-testid="cart-count"]');

test.describe("return and cancel URLs move the order at most once, and only by its own token", () => {
  test("a foreign token, a wrong type and type=error change nothing and say so", async () => {
    const { cookie, token } = await startPayment();
    for (const [path, notice] of [
      ["/checkout/return?type=success&token=not-my-token", "belongs to a different payment"],
      [`/checkout/return?type=cancel&token=${token}`, "could not read"],
      [`/checkout/cancel?type=error&token=${token}`, "could not read"],
      [`/checkout/return?type=success`, "could not read"],
      [`/checkout/return?type=success&token=${token}&token=other`, "could not read"],
      [`/checkout/return?type=success&token=${"x".repeat(5000)}`, "could not read"],
    ] as const) {
      const { html } = await open(path, cookie);
      expect(textsOf(html, '[role="status"]').join(" "), path).toContain(notice);
      expect(heading(html), path).toBe("Waiting for your payment");
    }
    expect(await cartCount(cookie)).toBe("2");
  });

  test("after a cancel, a success for the same token changes nothing (and the reverse)", async () => {
    const { cookie, token } = await startPayment();
    const cancelled = await open(`/checkout/cancel?type=cancel&token=${token}`, cookie);
    expect(heading(cancelled.html)).toBe("Your payment was cancelled or declined");
    const replayed = await open(`/checkout/return?type=success&token=${token}`, cancelled.cookie);
    expect(replayed.html).toContain("had already been recorded");
    expect(heading(replayed.html)).toBe("Your payment was cancelled or declined");
    expect(await cartCount(replayed.cookie)).toBe("2");
  });

  test("a replayed success after paying changes nothing", async () => {
    const { cookie, paymentUrl, token } = await startPayment();
    const back = await returnToShop(await payAtEmulator(paymentUrl, "sadad"), cookie);
    const paid = await open(back.orderPath, back.cookie);
    expect(heading(paid.html)).toMatch(/your payment is confirmed/i);
    const replayed = await open(`/checkout/cancel?type=cancel&token=${token}`, paid.cookie);
    expect(replayed.html).toContain("had already been recorded");
    expect(heading(replayed.html)).toMatch(/your payment is confirmed/i);
  });

  // A stranger's browser is a real one: a page that calls notFound() is rendered only by JavaScript in a production
  // build of Next.js 16 (its HTML body is empty), so its words can be read only in a browser.
  test("another browser's token cannot settle this browser's order", async ({ page }) => {
    const { cookie, token } = await startPayment();
    await page.goto(`/checkout/return?type=success&token=${token}`);
    await expect(page.getByRole("heading", { name: "We can't find this order" })).toBeVisible();
    expect(await cartCount(cookie)).toBe("2");
  });
});

test.describe("orders are shown only to the browser session that placed them", () => {
  test('another browser, a guessed id and a malformed id all get "not found"', async ({ page, request }) => {
    const { cookie } = await startPayment();
    const [payment] = await emulator.payments(request);
    const orderId = payment!.custom!;
    expect(heading((await open(`/orders/${orderId}`, cookie)).html)).toBe("Waiting for your payment");

    for (const path of [
      `/orders/${orderId}`,
      "/orders/ord_0123456789abcdef",
      "/orders/%27%20or%201%3D1--",
      `/orders/${"x".repeat(3000)}`,
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: "We can't find this order" }), path).toBeVisible();
    }
    expect(heading((await open("/orders")).html)).toBe("No orders yet");

    const mine = (await open("/orders", cookie)).html;
    expect(textOf(mine, '[data-testid="order-list"]')).toContain(orderId);
    expect(textOf(mine, '[data-testid="order-status"]')).toBe("Waiting for payment");
  });
});

test.describe("session cookie", () => {
  test("is HttpOnly, SameSite=Lax and scoped to /", async ({ page, context }) => {
    await addToCart(page, "saffron");
    const cookie = (await context.cookies()).find((c) => c.name === "shop_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  });

  for (const [name, mangle] of [
    ["tampered", (v: string) => v.slice(0, -6) + "AAAAAA"],
    ["truncated", (v: string) => v.slice(0, 40)],
    ["garbage", () => "not-a-session"],
    ["sealed with another password", () => "Fe26.2*1*" + "a".repeat(300)],
  ] as const) {
    test(`a ${name} cookie gives a fresh empty session, no error`, async () => {
      const base = stack().shopUrl;
      const cookie = await addByForm(base, { slug: "saffron" });
      const mangled = `shop_session=${mangle(cookie.slice("shop_session=".length))}`;
      const cart = await open("/cart", mangled);
      expect(cart.status).toBe(200);
      expect(heading(cart.html)).toBe("Your cart is empty");
      const fresh = await addByForm(base, { slug: "olive-oil", cookie: mangled });
      expect(await cartCount(fresh)).toBe("1");
    });
  }
});

test("every page sends the security headers and a CSP the app works under", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  for (const path of ["/", "/products/saffron", "/cart", "/checkout", "/orders/unknown"]) {
    const response = await page.goto(path);
    const headers = await response!.allHeaders();
    expect(headers["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["permissions-policy"], path).toContain("camera=()");
  }
  // The app's own scripts ran under the policy: a client-side action worked.
  await addToCart(page, "saffron");
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});

test("no secret in the static build, in any served page or in the server log", async ({ page }) => {
  // Serve every page through a full checkout, keeping every document, script and JSON answer.
  const bodies: string[] = [];
  page.on("response", async (response) => {
    if (!response.url().startsWith("http://localhost")) return;
    const type = response.headers()["content-type"] ?? "";
    if (/html|json|javascript|x-component/.test(type)) bodies.push(await response.text().catch(() => ""));
  });
  await payInBrowser(page);
  for (const path of ["/", "/products/olive-oil", "/cart", "/checkout"]) await page.goto(path);

  const staticFiles = walk(".next/static").map((file) => readFileSync(file, "latin1"));
  // Every stack's shop log so far (each worker's shop writes its own), this one's included.
  const log = readdirSync(".next")
    .filter((name) => /^e2e-shop-.*\.log$/.test(name))
    .map((name) => readFileSync(join(".next", name), "utf8"))
    .join("\n");
  expect(bodies.length).toBeGreaterThan(5);
  expect(staticFiles.length).toBeGreaterThan(5);
  expect(log).toContain("checkout_started");
  for (const secret of E2E_SECRETS) {
    for (const body of bodies) expect(body.includes(secret), "secret in a served response").toBe(false);
    for (const file of staticFiles) expect(file.includes(secret), "secret in .next/static").toBe(false);
    expect(log.includes(secret), "secret in the server log").toBe(false);
  }
});

test("the build output holds no env file and none of the secrets the build had", () => {
  // testing/test.mjs builds with the browser tests' environment, secrets included. The emulator's sandbox client
  // secret is published (emulator/README.md) and is development's fallback in lib/env.ts, so the server's code holds it
  // by design; every other secret must be nowhere in the output, the standalone server's folder included.
  const secrets = E2E_SECRETS.filter((secret) => secret !== "sandbox-demo-client-secret");
  // Not the build's: the browser tests' own server logs (the test above reads them), and `next dev`'s folder.
  const files = walk(".next").filter(
    (file) => !/^e2e-.*\.log$/.test(basename(file)) && !file.startsWith(join(".next", "dev")),
  );
  expect(files).toContain(join(".next", "standalone", "server.js"));
  expect(files.filter((file) => basename(file).startsWith(".env"))).toEqual([]);
  // The other workers' shops write their cache meanwhile: a file renamed away since the listing holds no secret.
  // Searched as bytes: 200 MB decoded to strings first took five times the CPU.
  const holding = files.filter((file) => {
    const content = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    return secrets.some((secret) => content.includes(secret));
  });
  expect(holding).toEqual([]);
});

/** A whole checkout in the browser, with JavaScript: cart, checkout, the payment page, Sadad, Pay, the paid order. */
async function payInBrowser(page: Page) {
  await addToCart(page, "saffron", 2);
  await page.goto("/checkout");
  await fillCheckout(page, {});
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  await page.getByRole("radio", { name: "Sadad" }).check();
  await page.getByRole("button", { name: /Continue/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: /your payment is confirmed/i })).toBeVisible();
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Undefined for a cache file another worker's shop replaced since the listing.
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isDirectory() ? walk(path) : stat ? [path] : [];
  });
}
