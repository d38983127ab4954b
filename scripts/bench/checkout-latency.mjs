// Checkout latency: the real checkout form posted as a browser without JavaScript posts it, against the FLOOR — the
// same two API calls (token, then create, with the body the shop sends) made directly with fetch. The ratio of the
// medians is what the shop adds on top of the payment service: the server action, the session, the redirect.
import { addToCart, isPaymentPage, loadCheckoutForm, submitCheckout } from "../no-js-shop.ts";
import { CLIENT_ID, CLIENT_SECRET, EMULATOR_URL, PAYMENT_API_BASE_URL, SHOP_URL, emulatorControl } from "./servers.mjs";
import { mapLimit, summary } from "./stats.mjs";

/** Budget: checkout p50 ≤ 1.10 × floor p50. */
export const LATENCY_RATIO_BUDGET = 1.1;

/** A fresh session with one product in its cart, and its checkout form. */
async function newCartSession() {
  const cookie = await addToCart(SHOP_URL, { slug: "olive-oil", quantity: 1 });
  const { hidden, gateways } = await loadCheckoutForm(SHOP_URL, cookie);
  if (!gateways[0]) throw new Error("the checkout form offers no payment gateway");
  return { cookie, hidden, gateway: gateways[0] };
}

/** A unique full name of fixed length, so every checkout is a new one (no resume) and bodies keep one size. */
const uniqueName = (run, kind, index) => `Bench ${run} ${kind}${String(index).padStart(6, "0")}`;
const orderLikeId = () => `ord_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;

async function postJson(path, body, bearer) {
  // The headers lib/payments.ts sends (the shopper's language included: the bench's shopper asks for English).
  const headers = { Accept: "application/json", "Content-Type": "application/json", "X-Request-Id": crypto.randomUUID(), "Accept-Language": "en" };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const response = await fetch(`${PAYMENT_API_BASE_URL}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const envelope = JSON.parse(await response.text());
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(envelope.message)}`);
  return envelope.data;
}

/** One floor iteration: token, then create with `body` (what lib/payments.ts does, without the shop around it). */
async function floorOnce(body) {
  const started = performance.now();
  const { access_token } = await postJson("/authentication/token", { client_id: CLIENT_ID, secret_id: CLIENT_SECRET });
  const { token, payment_url } = await postJson("/payment/create", body, access_token);
  const elapsed = performance.now() - started;
  if (!token || !payment_url) throw new Error("create answered without token/payment_url");
  return elapsed;
}

/** One timed checkout on a fresh session. */
async function checkoutOnce(session, details) {
  const started = performance.now();
  const result = await submitCheckout(SHOP_URL, session.cookie, session.hidden, details);
  const elapsed = performance.now() - started;
  if (result.status !== 303 || !isPaymentPage(result.location, EMULATOR_URL)) {
    throw new Error(`checkout answered ${result.status} ${result.location ?? ""} (expected 303 to the payment page)`);
  }
  return { elapsed, paymentToken: new URL(result.location).pathname.split("/").pop() };
}

/** The create body the shop sent for `paymentToken`, read back from the emulator, keys in lib/payments.ts order. */
async function bodyShapeOf(paymentToken) {
  const response = await fetch(`${EMULATOR_URL}/__emulator/payments/${encodeURIComponent(paymentToken)}`);
  if (!response.ok) throw new Error(`emulator payment lookup answered ${response.status}`);
  const { payment } = await response.json();
  const body = {};
  for (const key of ["amount", "currency", "return_url", "cancel_url", "custom", "full_name", "email", "phone", "payment_gateway"]) {
    if (payment[key] !== null && payment[key] !== undefined) body[key] = payment[key];
  }
  return body;
}

/**
 * Runs `n` sequential checkouts and `n` floor iterations, interleaved (alternating which goes first), after
 * `warmup` untimed pairs, with the emulator adding `latencyMs` to every token and create call.
 */
export async function measureCheckoutLatency({ n, warmup, latencyMs, log = console.log }) {
  await emulatorControl.reset();
  await emulatorControl.config({ latencyMs, rateLimit: 0 });
  const run = Date.now().toString(36);
  const total = n + warmup;

  log(`  preparing ${total} sessions with a cart (untimed)…`);
  const sessions = await mapLimit(Array.from({ length: total }), 4, () => newCartSession());
  const details = (index) => ({
    full_name: uniqueName(run, "c", index),
    email: "bench@example.ly",
    phone: "0912345678",
    payment_gateway: sessions[index].gateway,
  });

  const first = await checkoutOnce(sessions[0], details(0));
  const shape = await bodyShapeOf(first.paymentToken);
  const floorBody = (index) => ({ ...shape, custom: orderLikeId(), full_name: uniqueName(run, "f", index) });

  const checkout = [];
  const floor = [];
  for (let index = 1; index < total; index++) {
    const timed = index >= warmup;
    const runCheckout = async () => {
      const { elapsed } = await checkoutOnce(sessions[index], details(index));
      if (timed) checkout.push(elapsed);
    };
    const runFloor = async () => {
      const elapsed = await floorOnce(floorBody(index));
      if (timed) floor.push(elapsed);
    };
    if (index % 2 === 0) {
      await runCheckout();
      await runFloor();
    } else {
      await runFloor();
      await runCheckout();
    }
  }

  // Every checkout must have made its own two API calls: one payment per checkout at the service.
  const payments = await emulatorControl.payments();
  const checkoutPayments = payments.filter((payment) => payment.full_name?.startsWith(`Bench ${run} c`)).length;
  const c = summary(checkout);
  const f = summary(floor);
  return {
    n: checkout.length,
    warmup,
    latencyMs,
    checkout: c,
    floor: f,
    ratio: c.p50 / f.p50,
    ratioP95: c.p95 / f.p95,
    paymentsCreatedByCheckouts: checkoutPayments,
    checkoutsSubmitted: total,
    shape: Object.keys(shape),
  };
}
