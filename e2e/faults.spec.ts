import type { Page } from "@playwright/test";
import { addToCart, cartCount, emulator, expect, fillCheckout, paymentPage, stack, test } from "./support";

/**
 * Faults of the payment service, arranged through the emulator's control API. Whatever happens, the customer stays
 * on the checkout page with a clear message, their input and their cart, and the service holds at most one payment.
 */

test.beforeEach(async ({ page, request }) => {
  await emulator.reset(request);
  await addToCart(page, "olive-oil", 2);
  await page.goto("/checkout");
  await fillCheckout(page, { full_name: "Salem Fathi", email: "salem@example.ly" });
});

async function submitAndExpectMessage(page: Page, message: RegExp) {
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByTestId("checkout-error")).toContainText(message, { timeout: 30_000 });
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByLabel(/Full name/)).toHaveValue("Salem Fathi");
  await expect(page.getByLabel(/E-mail/)).toHaveValue("salem@example.ly");
  expect(await cartCount(page)).toBe(2);
}

const cases: { name: string; fault: Parameters<typeof emulator.fault>[1]; message: RegExp }[] = [
  {
    name: "create answers 500 on every attempt",
    fault: { route: "create", kind: "status", status: 500, count: 3 },
    message: /could not reach the payment service/,
  },
  {
    name: "create answers 503 on every attempt",
    fault: { route: "create", kind: "status", status: 503, count: 3 },
    message: /could not reach the payment service/,
  },
  {
    name: "the token request answers 502 on every attempt",
    fault: { route: "token", kind: "status", status: 502, count: 3 },
    message: /could not reach the payment service/,
  },
  {
    name: "create is rate limited (429)",
    fault: { route: "create", kind: "status", status: 429 },
    message: /busy right now\. Please try again in \d+ seconds/,
  },
  {
    name: "the token request is rate limited (429)",
    fault: { route: "token", kind: "status", status: 429 },
    message: /busy right now/,
  },
  {
    name: "create is slower than the client's timeout",
    fault: { route: "create", kind: "delay", delayMs: 4_000, count: 3 },
    message: /took too long to answer/,
  },
  {
    name: "create answers an HTML error page",
    fault: { route: "create", kind: "html", status: 500, count: 3 },
    message: /could not reach the payment service/,
  },
  {
    name: "create answers malformed JSON",
    fault: { route: "create", kind: "malformed", status: 200 },
    message: /answer we could not use/,
  },
  {
    name: "the connection drops on create",
    fault: { route: "create", kind: "drop", count: 3 },
    message: /could not reach the payment service/,
  },
  {
    name: "create refuses the access token even after a fresh one (403)",
    fault: { route: "create", kind: "status", status: 403, count: 2 },
    message: /problem with this shop's payment setup/,
  },
  {
    name: "create answers a payment_url on a foreign host",
    fault: { route: "create", kind: "foreign_url" },
    message: /answer we could not use, so we did not send you on/,
  },
];

for (const { name, fault, message } of cases) {
  test(`${name}: message on the checkout, input and cart kept, at most one payment`, async ({ page, request }) => {
    await emulator.fault(request, fault);
    await submitAndExpectMessage(page, message);
    // A slow create still reaches the service and creates the payment once it answers: every retry sent the
    // identical body on the same access token, so all of them together made exactly one payment.
    // So does a tampered answer: the payment exists, the customer is just never sent to the foreign host.
    const held = fault.kind === "delay" || fault.kind === "foreign_url" ? 1 : 0;
    await expect.poll(async () => (await emulator.payments(request)).length, { timeout: 10_000 }).toBe(held);

    // Once the service recovers, the same form goes through: one more payment, the customer on its page.
    await request.delete(`${stack().emulatorUrl}/__emulator/faults`);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    const payments = await emulator.payments(request);
    expect(payments).toHaveLength(held + 1);
    expect(payments.some((payment) => page.url().includes(payment.token))).toBe(true);
  });
}

test("one 502 on create is retried with the same access token: the customer never notices, one payment", async ({
  page,
  request,
}) => {
  await emulator.fault(request, { route: "create", kind: "status", status: 502 });
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("a stale access token (401 on create) gets one fresh token: the customer never notices, one payment", async ({
  page,
  request,
}) => {
  await emulator.fault(request, { route: "create", kind: "status", status: 401 });
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("a create that answers after the client gave up is retried into the same payment, not a second one", async ({
  page,
  request,
}) => {
  // The first attempt reaches the service and creates the payment, but answers too late; the retry repeats the
  // identical body on the same access token and gets the same payment back (docs/payment-service.md,
  // "Creating a payment").
  await emulator.fault(request, { route: "create", kind: "delay", delayMs: 2_500 });
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`), { timeout: 20_000 });
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("a payment the service refuses (400) shows the service's reason", async ({ page, request }) => {
  await fillCheckout(page, { gateway: "Edfali" });
  await page.getByLabel(/Full name/).fill("Salem sandbox:reject");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByTestId("checkout-error")).toContainText("did not accept this payment");
  expect(await cartCount(page)).toBe(2);
  expect(await emulator.payments(request)).toHaveLength(0);
});

test("a 409 from the service is explained and nothing is charged", async ({ page, request }) => {
  await page.getByLabel(/Full name/).fill("Salem sandbox:conflict");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByTestId("checkout-error")).toContainText("had already been started");
  expect(await cartCount(page)).toBe(2);
  expect((await emulator.payments(request)).length).toBeLessThanOrEqual(1);
});

test.describe("double submit", () => {
  test("two tabs submitting the same checkout at once lead to one payment", async ({ page, context, request }) => {
    const second = await context.newPage();
    await second.goto("/checkout");
    await fillCheckout(second, { full_name: "Salem Fathi", email: "salem@example.ly" });
    await Promise.all([
      page.getByRole("button", { name: "Continue to payment" }).click(),
      second.getByRole("button", { name: "Continue to payment" }).click(),
    ]);
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    await expect(second).toHaveURL(page.url());
    expect(await emulator.payments(request)).toHaveLength(1);
  });

  test("ten tabs of one session: those that submit after another tab paid are sent to that order, not to an empty cart", async ({
    page,
    context,
    request,
  }) => {
    const tabs = [page, ...(await Promise.all(Array.from({ length: 9 }, () => context.newPage())))];
    for (const tab of tabs.slice(1)) {
      await tab.goto("/checkout");
      await fillCheckout(tab, { full_name: "Salem Fathi", email: "salem@example.ly" });
    }
    // Half the tabs submit now: one payment, every tab on its page.
    const early = tabs.slice(0, 5);
    await Promise.all(early.map((tab) => tab.getByRole("button", { name: "Continue to payment" }).click()));
    for (const tab of early) await expect(tab).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    const paymentUrl = page.url();
    // The first tab pays and comes back: the cart is now empty in the shared session cookie.
    await page.getByRole("radio", { name: "Sadad" }).check();
    await page.getByRole("button", { name: paymentPage("en").continue }).click();
    await page.getByRole("button", { name: paymentPage("en").pay, exact: true }).click();
    await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?outcome=reported$/);
    const orderPath = new URL(page.url()).pathname;
    // The other half submit the stale form: each lands on that order's page.
    const late = tabs.slice(5);
    await Promise.all(late.map((tab) => tab.getByRole("button", { name: "Continue to payment" }).click()));
    for (const tab of late) {
      await expect(tab).toHaveURL(new RegExp(`${orderPath}$`));
      await expect(tab.getByTestId("checkout-error")).toHaveCount(0);
    }
    for (const tab of early.slice(1)) expect(tab.url()).toBe(paymentUrl);
    expect(await emulator.payments(request)).toHaveLength(1);
  });

  test("back from the payment page and submit again resumes the same payment", async ({ page, request }) => {
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    const paymentUrl = page.url();
    await page.goto("/checkout");
    await expect(page.getByTestId("pending-notice")).toBeVisible();
    await fillCheckout(page, { full_name: "Salem Fathi", email: "salem@example.ly" });
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(paymentUrl);
    expect(await emulator.payments(request)).toHaveLength(1);
  });

  test("a changed cart after coming back starts a new payment", async ({ page, request }) => {
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    const first = page.url();
    await addToCart(page, "saffron");
    await page.goto("/checkout");
    await expect(page.getByTestId("pending-notice")).toContainText("a new payment is started");
    await fillCheckout(page, { full_name: "Salem Fathi", email: "salem@example.ly" });
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    expect(page.url()).not.toBe(first);
    const payments = await emulator.payments(request);
    expect(payments.map((p) => p.amount).sort()).toEqual(["113.75", "95.00"]);
  });
});
