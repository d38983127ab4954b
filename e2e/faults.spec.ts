import {
  addToCart,
  getPage,
  isPaymentPage,
  loadCheckoutForm,
  payAtEmulator,
  returnToShop,
  submitCheckout,
  textOf,
  valueOf,
} from "../testing/no-js-shop";
import {
  addToCart as addInBrowser,
  emulator,
  expect,
  fillCheckout,
  shop,
  stack,
  submitCheckout as submitInBrowser,
  test,
} from "./support";

/**
 * Faults of the payment service, arranged through the emulator's control API. Whatever happens, the customer stays
 * on the checkout page with a clear message, their input and their cart, and the service holds at most one payment.
 *
 * Posted as a browser without JavaScript posts the form (testing/no-js-shop.ts): the answer is the page the customer
 * sees. One test drives two real tabs with JavaScript.
 */

test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

const DETAILS = { full_name: "Salem Fathi", email: "salem@example.ly", payment_gateway: "" };

/** A customer with two bottles of olive oil in the cart, at the checkout, details typed in (no gateway chosen). */
async function atCheckout(slug = "olive-oil", quantity = 2) {
  const base = stack().shopUrl;
  const cookie = await addToCart(base, { slug, quantity });
  const { hidden, delivery } = await loadCheckoutForm(base, cookie);
  return { base, cookie, hidden, details: { ...delivery, ...DETAILS } };
}

/** The checkout answered with its page again: `message` shown, the input and the cart (2 items) kept. */
function expectCheckoutMessage(answer: { status: number; html: string }, message: RegExp) {
  expect(answer.status).toBe(200);
  expect(textOf(answer.html, '[data-testid="checkout-error"]')).toMatch(message);
  expect(valueOf(answer.html, "full_name")).toBe(DETAILS.full_name);
  expect(valueOf(answer.html, "email")).toBe(DETAILS.email);
  expect(textOf(answer.html, '[data-testid="cart-count"]')).toBe("2");
}

const toPaymentPage = (answer: { status: number; location: string | null }) => {
  expect(answer.status).toBe(303);
  expect(isPaymentPage(answer.location, stack().emulatorUrl)).toBe(true);
  return answer.location!;
};

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
  test(`${name}: message on the checkout, input and cart kept, at most one payment`, async ({ request }) => {
    const { base, cookie, hidden, details } = await atCheckout();
    await emulator.fault(request, fault);
    const failed = await submitCheckout(base, cookie, hidden, details);
    expectCheckoutMessage(failed, message);
    // A slow create still reaches the service and creates the payment once it answers: every retry sent the
    // identical body on the same access token, so all of them together made exactly one payment.
    // So does a tampered answer: the payment exists, the customer is just never sent to the foreign host.
    const held = fault.kind === "delay" || fault.kind === "foreign_url" ? 1 : 0;
    await expect.poll(async () => (await emulator.payments(request)).length, { timeout: 10_000 }).toBe(held);

    // Once the service recovers, the same form goes through: one more payment, the customer on its page.
    await request.delete(`${stack().emulatorUrl}/__emulator/faults`);
    const paymentUrl = toPaymentPage(await submitCheckout(base, failed.cookie, hidden, details));
    const payments = await emulator.payments(request);
    expect(payments).toHaveLength(held + 1);
    expect(payments.some((payment) => paymentUrl.includes(payment.token))).toBe(true);
  });
}

test("one 502 on create is retried with the same access token: the customer never notices, one payment", async ({
  request,
}) => {
  const { base, cookie, hidden, details } = await atCheckout();
  await emulator.fault(request, { route: "create", kind: "status", status: 502 });
  toPaymentPage(await submitCheckout(base, cookie, hidden, details));
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("a stale access token (401 on create) gets one fresh token: the customer never notices, one payment", async ({
  request,
}) => {
  const { base, cookie, hidden, details } = await atCheckout();
  await emulator.fault(request, { route: "create", kind: "status", status: 401 });
  toPaymentPage(await submitCheckout(base, cookie, hidden, details));
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("a create that answers after the client gave up is retried into the same payment, not a second one", async ({
  request,
}) => {
  // The first attempt reaches the service and creates the payment, but answers too late; the retry repeats the
  // identical body on the same access token and gets the same payment back (docs/payment-service.md,
  // "Creating a payment").
  const { base, cookie, hidden, details } = await atCheckout();
  await emulator.fault(request, { route: "create", kind: "delay", delayMs: 2_500 });
  toPaymentPage(await submitCheckout(base, cookie, hidden, details));
  expect(await emulator.payments(request)).toHaveLength(1);
});

test("a payment the service refuses (400) shows the service's reason", async ({ request }) => {
  const { base, cookie, hidden, details } = await atCheckout();
  const refused = await submitCheckout(base, cookie, hidden, {
    ...details,
    full_name: "Salem sandbox:reject",
    payment_gateway: "edfali",
  });
  expect(refused.status).toBe(200);
  expect(textOf(refused.html, '[data-testid="checkout-error"]')).toContain("did not accept this payment");
  expect(textOf(refused.html, '[data-testid="cart-count"]')).toBe("2");
  expect(await emulator.payments(request)).toHaveLength(0);
});

test("a 409 from the service is explained and nothing is charged", async ({ request }) => {
  const { base, cookie, hidden, details } = await atCheckout();
  const refused = await submitCheckout(base, cookie, hidden, { ...details, full_name: "Salem sandbox:conflict" });
  expect(refused.status).toBe(200);
  expect(textOf(refused.html, '[data-testid="checkout-error"]')).toContain("had already been started");
  expect(textOf(refused.html, '[data-testid="cart-count"]')).toBe("2");
  expect((await emulator.payments(request)).length).toBeLessThanOrEqual(1);
});

test.describe("double submit", () => {
  test("two tabs submitting the same checkout at once lead to one payment", async ({ page, context, request }) => {
    await addInBrowser(page, "olive-oil", 2);
    const tabs = [page, await context.newPage()];
    for (const tab of tabs) {
      await tab.goto("/checkout");
      await fillCheckout(tab, { full_name: DETAILS.full_name, email: DETAILS.email });
    }
    await Promise.all(tabs.map((tab) => submitInBrowser(tab)));
    await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/`));
    await expect(tabs[1]!).toHaveURL(page.url());
    expect(await emulator.payments(request)).toHaveLength(1);
  });

  test("ten tabs of one session: those that submit after another tab paid are sent to that order, not to an empty cart", async ({
    request,
  }) => {
    const { base, cookie, hidden, details } = await atCheckout();
    const submit = (count: number, tabCookie: string) =>
      Promise.all(Array.from({ length: count }, () => submitCheckout(base, tabCookie, hidden, details)));
    // Half the tabs submit now: one payment, every tab on its page.
    const early = await submit(5, cookie);
    const paymentUrl = toPaymentPage(early[0]!);
    for (const answer of early) expect(answer.location).toBe(paymentUrl);
    // The first tab pays and comes back: the cart is now empty in the shared session cookie.
    const back = await returnToShop(await payAtEmulator(paymentUrl, "sadad"), early[0]!.cookie);
    expect(back.orderPath).toMatch(/^\/orders\/ord_[0-9a-z]+\?outcome=reported$/);
    // The other half submit the stale form: each lands on that order's page, no message.
    const late = await submit(5, back.cookie);
    for (const answer of late) expect([answer.status, answer.location]).toEqual([303, back.orderPath.split("?")[0]]);
    expect(await emulator.payments(request)).toHaveLength(1);
  });

  test("back from the payment page and submit again resumes the same payment", async ({ request }) => {
    const { base, cookie, hidden, details } = await atCheckout();
    const first = await submitCheckout(base, cookie, hidden, details);
    const paymentUrl = toPaymentPage(first);
    const again = await getPage(`${base}/checkout`, first.cookie);
    expect(textOf(again, '[data-testid="pending-notice"]')).toBe(shop("checkout.pendingNotice", "en"));
    const resumed = await submitCheckout(
      base,
      first.cookie,
      (await loadCheckoutForm(base, first.cookie)).hidden,
      details,
    );
    expect(resumed.location).toBe(paymentUrl);
    expect(await emulator.payments(request)).toHaveLength(1);
  });

  test("a changed cart after coming back starts a new payment", async ({ request }) => {
    const { base, cookie, hidden, details } = await atCheckout();
    const started = await submitCheckout(base, cookie, hidden, details);
    const first = toPaymentPage(started);
    const changed = await addToCart(base, { slug: "saffron", cookie: started.cookie });
    const page = await getPage(`${base}/checkout`, changed);
    expect(textOf(page, '[data-testid="pending-notice"]')).toBe(shop("checkout.pendingNotice", "en"));
    const second = await submitCheckout(base, changed, (await loadCheckoutForm(base, changed)).hidden, details);
    expect(toPaymentPage(second)).not.toBe(first);
    const payments = await emulator.payments(request);
    expect(payments.map((p) => p.amount).sort()).toEqual(["113.75", "95.00"]);
  });
});
