import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Page } from "@playwright/test";
import { addToCart, cartCount, emulator, expect, fillCheckout, stack, test } from "./support";
import { E2E_SECRETS } from "./stacks";

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/** Starts a checkout and stops on the payment page; returns the payment token. */
async function startPayment(page: Page): Promise<string> {
  await addToCart(page, "saffron", 2);
  await page.goto("/checkout");
  await fillCheckout(page, {});
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  return page.url().split("/").pop()!.split("?")[0]!;
}

test.describe("return and cancel URLs move the order at most once, and only by its own token", () => {
  test("a foreign token, a wrong type and type=error change nothing and say so", async ({ page }) => {
    const token = await startPayment(page);
    for (const [path, notice] of [
      ["/checkout/return?type=success&token=not-my-token", "belongs to a different payment"],
      [`/checkout/return?type=cancel&token=${token}`, "could not read"],
      [`/checkout/cancel?type=error&token=${token}`, "could not read"],
      [`/checkout/return?type=success`, "could not read"],
      [`/checkout/return?type=success&token=${token}&token=other`, "could not read"],
      [`/checkout/return?type=success&token=${"x".repeat(5000)}`, "could not read"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("status").filter({ hasText: notice })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Waiting for your payment" })).toBeVisible();
    }
    expect(await cartCount(page)).toBe(2);
  });

  test("after a cancel, a success for the same token changes nothing (and the reverse)", async ({ page }) => {
    const token = await startPayment(page);
    await page.goto(`/checkout/cancel?type=cancel&token=${token}`);
    await expect(page.getByRole("heading", { name: "Your payment was cancelled or declined" })).toBeVisible();
    await page.goto(`/checkout/return?type=success&token=${token}`);
    await expect(page.getByText("had already been recorded")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your payment was cancelled or declined" })).toBeVisible();
    expect(await cartCount(page)).toBe(2);
  });

  test("a replayed success after paying changes nothing", async ({ page }) => {
    const token = await startPayment(page);
    await page.getByRole("radio", { name: "Sadad" }).check();
    await page.getByRole("button", { name: /Continue/ }).click();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByRole("heading", { name: /your payment is confirmed/i })).toBeVisible();
    await page.goto(`/checkout/cancel?type=cancel&token=${token}`);
    await expect(page.getByText("had already been recorded")).toBeVisible();
    await expect(page.getByRole("heading", { name: /your payment is confirmed/i })).toBeVisible();
  });

  test("another browser's token cannot settle this browser's order", async ({ page, browser }) => {
    const token = await startPayment(page);
    const other = await browser.newContext();
    const stranger = await other.newPage();
    await stranger.goto(`/checkout/return?type=success&token=${token}`);
    await expect(stranger.getByRole("heading", { name: "We can't find this order" })).toBeVisible();
    await other.close();
    await page.goto("/cart");
    expect(await cartCount(page)).toBe(2);
  });
});

test.describe("orders are shown only to the browser session that placed them", () => {
  test('another browser, a guessed id and a malformed id all get "not found"', async ({ page, browser, request }) => {
    await startPayment(page);
    const [payment] = await emulator.payments(request);
    const orderId = payment!.custom!;
    await page.goto(`/orders/${orderId}`);
    await expect(page.getByRole("heading", { name: "Waiting for your payment" })).toBeVisible();

    const other = await browser.newContext();
    const stranger = await other.newPage();
    for (const path of [
      `/orders/${orderId}`,
      "/orders/ord_0123456789abcdef",
      "/orders/%27%20or%201%3D1--",
      `/orders/${"x".repeat(3000)}`,
    ]) {
      await stranger.goto(path);
      await expect(stranger.getByRole("heading", { name: "We can't find this order" })).toBeVisible();
    }
    await stranger.goto("/orders");
    await expect(stranger.getByRole("heading", { name: "No orders yet" })).toBeVisible();
    await other.close();

    await page.goto("/orders");
    await expect(page.getByTestId("order-list")).toContainText(orderId);
    await expect(page.getByTestId("order-status")).toHaveText("Waiting for payment");
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
    test(`a ${name} cookie gives a fresh empty session, no error`, async ({ page, context }) => {
      await addToCart(page, "saffron");
      const cookie = (await context.cookies()).find((c) => c.name === "shop_session")!;
      await context.addCookies([{ ...cookie, value: mangle(cookie.value) }]);
      const response = await page.goto("/cart");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
      await addToCart(page, "olive-oil");
      expect(await cartCount(page)).toBe(1);
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
  await startPayment(page);
  await page.getByRole("radio", { name: "Sadad" }).check();
  await page.getByRole("button", { name: /Continue/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: /your payment is confirmed/i })).toBeVisible();
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
  const holding = files.filter((file) => {
    const content = existsSync(file) ? readFileSync(file, "latin1") : "";
    return secrets.some((secret) => content.includes(secret));
  });
  expect(holding).toEqual([]);
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Undefined for a cache file another worker's shop replaced since the listing.
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isDirectory() ? walk(path) : stat ? [path] : [];
  });
}
