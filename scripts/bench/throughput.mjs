// Throughput with autocannon: real checkouts (each a no-JS form post with a unique full name and a session with a
// cart from a pool, so each one makes its two API calls) and the home page, N connections for a fixed duration.
import autocannon from "autocannon";
import { addToCart, checkoutFields, isPaymentPage, loadCheckoutForm, multipartBody } from "../no-js-shop.ts";
import { EMULATOR_URL, SHOP_URL, emulatorControl } from "./servers.mjs";
import { mapLimit } from "./stats.mjs";

/** The figures of one autocannon run. */
function figures(result, extra = {}) {
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
  const unexpected = Object.entries(codes)
    .filter(([code]) => !(code.startsWith("2") || code.startsWith("3")))
    .reduce((total, [, count]) => total + count, 0);
  const completed = Object.values(codes).reduce((total, count) => total + count, 0);
  return {
    connections: result.connections,
    durationSec: result.duration,
    completed,
    requestsPerSec: completed / result.duration,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: codes,
    notTwoOrThreeHundred: unexpected,
    ...extra,
  };
}

/**
 * Checkouts: `connections` connections for `durationSec` seconds, each request a new checkout.
 * The emulator answers without added latency. A 303 counts only when its Location is the payment page.
 */
export async function checkoutThroughput({ connections, durationSec, poolSize, log = console.log }) {
  await emulatorControl.reset();
  await emulatorControl.config({ latencyMs: 0, rateLimit: 0 });
  log(`  preparing ${poolSize} sessions with a cart (untimed)…`);
  const pool = await mapLimit(Array.from({ length: poolSize }), 4, async () => {
    const cookie = await addToCart(SHOP_URL, { slug: "saffron", quantity: 1 });
    const { hidden, gateways } = await loadCheckoutForm(SHOP_URL, cookie);
    return { cookie, hidden, gateway: gateways[0] ?? "" };
  });

  const run = Date.now().toString(36);
  const origin = new URL(SHOP_URL).origin;
  // autocannon builds requests synchronously: encode the bodies up front (far more than a run can send).
  const bodies = await Promise.all(
    Array.from({ length: 5_000 }, (_, index) => {
      const session = pool[index % pool.length];
      const details = {
        full_name: `Load ${run} ${String(index).padStart(7, "0")}`,
        email: "load@example.ly",
        phone: "0912345678",
        payment_gateway: session.gateway,
      };
      return multipartBody(checkoutFields(session.hidden, details));
    }),
  );
  let sent = 0;
  let toPaymentPage = 0;
  let otherRedirects = 0;
  const result = await autocannon({
    url: SHOP_URL,
    connections,
    duration: durationSec,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: "/checkout",
        setupRequest(request) {
          const index = sent++ % bodies.length;
          const session = pool[index % pool.length];
          const { body, contentType } = bodies[index];
          return {
            ...request,
            headers: { ...request.headers, Accept: "text/html", Cookie: session.cookie, Origin: origin, "Content-Type": contentType },
            body,
          };
        },
        onResponse(status, _body, _context, headers) {
          if (status < 300 || status >= 400) return;
          const location = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "location")?.[1];
          if (isPaymentPage(location, EMULATOR_URL)) toPaymentPage++;
          else otherRedirects++;
        },
      },
    ],
  });
  const payments = (await emulatorControl.payments()).filter((payment) => payment.full_name?.startsWith(`Load ${run} `)).length;
  return figures(result, { checkoutsPerSec: toPaymentPage / result.duration, toPaymentPage, otherRedirects, paymentsCreated: payments, poolSize });
}

/** The home page, GET / without a cookie (a first visit), `connections` connections for `durationSec` seconds. */
export async function homeThroughput({ connections, durationSec }) {
  const result = await autocannon({
    url: SHOP_URL,
    connections,
    duration: durationSec,
    timeout: 30,
    headers: { Accept: "text/html", "Accept-Language": "en-US,en;q=0.9", "Accept-Encoding": "gzip" },
  });
  return figures(result);
}
