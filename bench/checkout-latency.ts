// Checkout latency: the shop's real checkout form posted as a browser without JavaScript posts it, against
//  - the BASELINE: a bare Next.js app (bench/baseline/) whose server action makes the same two API calls
//    with fetch and redirect()s — what any Next.js checkout with a server action costs;
//  - the RAW calls: the same two API calls (token, then create with the body the shop sends) made with fetch from
//    the bench process — what the payment service alone costs.
// One checkout at a time, the arms alternated (their order rotating every round), the emulator adding the same
// latency to every token and create call.
import {
  addToCart,
  isPaymentPage,
  loadCheckoutForm,
  submitCheckout,
  findForm,
  getPage,
  type CheckoutDetails,
} from "../testing/no-js-shop";
import type { RunningEmulator } from "../scripts/servers";
import { mapLimit, summary, type Summary } from "./stats";

/** Budget: shop checkout p50 ≤ 1.10 × baseline checkout p50 (at 25 ms per API call)… */
export const LATENCY_RATIO_BUDGET = 1.1;
/** …and its p95 ≤ 1.20 × the baseline's p95. */
export const LATENCY_P95_RATIO_BUDGET = 1.2;

export const CLIENT_ID = "sandbox-demo-client-id";
export const CLIENT_SECRET = "sandbox-demo-client-secret";

/** A shop under test: its URL and which database it stores orders in. */
export interface ShopUnderTest {
  key: string;
  name: string;
  url: string;
}

/** One arm's timings (ms); `key` is the shop's key, "baseline" or "raw". */
interface ArmResult {
  key: string;
  name: string;
  summary: Summary;
}

export interface LatencyRun {
  latencyMs: number;
  n: number;
  arms: ArmResult[];
}

/** A fresh shop session with one product in its cart, and its checkout form. */
async function newCartSession(shopUrl: string) {
  const cookie = await addToCart(shopUrl, { slug: "olive-oil", quantity: 1 });
  const { hidden, gateways, delivery } = await loadCheckoutForm(shopUrl, cookie);
  if (!gateways[0]) throw new Error("the checkout form offers no payment gateway");
  return { cookie, hidden, gateway: gateways[0], delivery };
}

/** A unique full name of fixed length, so every checkout is a new one (no resume) and bodies keep one size. */
const uniqueName = (run: string, arm: string, index: number) =>
  `Bench ${run} ${arm.slice(0, 1)}${String(index).padStart(6, "0")}`;
const orderLikeId = () => `ord_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;

async function postJson(apiBase: string, path: string, body: unknown, bearer?: string) {
  // The headers lib/payments.ts sends (the shopper's language included: the bench's shopper asks for English).
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Content-Type": "application/json",
    "X-Request-Id": crypto.randomUUID(),
    "Accept-Language": "en",
  };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const response = await fetch(`${apiBase}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const envelope = JSON.parse(await response.text()) as { data: Record<string, string>; message?: unknown };
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(envelope.message)}`);
  return envelope.data;
}

/** The two calls alone: token, then create with `body` (what lib/payments.ts does, without anything around it). */
async function rawOnce(apiBase: string, body: Record<string, string>): Promise<number> {
  const started = performance.now();
  const { access_token } = await postJson(apiBase, "/authentication/token", {
    client_id: CLIENT_ID,
    secret_id: CLIENT_SECRET,
  });
  const { token, payment_url } = await postJson(apiBase, "/payment/create", body, access_token);
  const elapsed = performance.now() - started;
  if (!token || !payment_url) throw new Error("create answered without token/payment_url");
  return elapsed;
}

/** Posts a form the way a no-JS browser does and checks for a 303 to the payment page. */
async function checkoutOnce(
  url: string,
  cookie: string,
  hidden: [string, string][],
  details: CheckoutDetails,
  serviceOrigin: string,
) {
  const started = performance.now();
  const result = await submitCheckout(url, cookie, hidden, details);
  const elapsed = performance.now() - started;
  if (result.status !== 303 || !isPaymentPage(result.location, serviceOrigin)) {
    throw new Error(
      `checkout at ${url} answered ${result.status} ${result.location ?? ""} (expected 303 to the payment page)`,
    );
  }
  return { elapsed, paymentToken: new URL(result.location).pathname.split("/").pop()! };
}

/** The baseline page's form: its hidden `$ACTION_…` inputs (the page is static: the same for every post). */
async function baselineForm(baselineUrl: string): Promise<[string, string][]> {
  const form = findForm(await getPage(`${baselineUrl}/checkout`), "full_name");
  if (!form) throw new Error("the baseline page has no form with a full_name field");
  return form.hidden;
}

/** The create body the shop sent for `paymentToken`, read back from the emulator, keys in lib/payments.ts order. */
async function bodyShapeOf(emulator: RunningEmulator, paymentToken: string): Promise<Record<string, string>> {
  const { payment } = await emulator.control<{ payment: Record<string, string | null> }>(
    `/payments/${encodeURIComponent(paymentToken)}`,
  );
  const body: Record<string, string> = {};
  for (const key of [
    "amount",
    "currency",
    "return_url",
    "cancel_url",
    "custom",
    "full_name",
    "email",
    "phone",
    "payment_gateway",
  ]) {
    const value = payment[key];
    if (value !== null && value !== undefined) body[key] = value;
  }
  return body;
}

export interface LatencyOptions {
  shops: ShopUnderTest[];
  baselineUrl: string;
  emulator: RunningEmulator;
  latencyMs: number;
  n: number;
  warmup: number;
  log?: (line: string) => void;
}

/**
 * `n` timed checkouts per arm (every shop, the baseline, the raw calls), after `warmup` untimed rounds, with the
 * emulator adding `latencyMs` to every token and create call. Each round runs every arm once, one at a time, in an
 * order that rotates from round to round.
 */
export async function measureCheckoutLatency({
  shops,
  baselineUrl,
  emulator,
  latencyMs,
  n,
  warmup,
  log = console.log,
}: LatencyOptions): Promise<LatencyRun> {
  await emulator.control("/reset", {});
  await emulator.control("/config", { latencyMs, rateLimit: 0 });
  const run = Date.now().toString(36);
  const total = n + warmup;
  const serviceOrigin = emulator.url;

  log(`  preparing ${total} sessions with a cart per shop (untimed)…`);
  const sessions = new Map<string, Awaited<ReturnType<typeof newCartSession>>[]>();
  for (const shop of shops)
    sessions.set(shop.key, await mapLimit(Array.from({ length: total + 1 }), 4, () => newCartSession(shop.url)));
  const baselineHidden = await baselineForm(baselineUrl);

  // The olive oil is delivered: the shop's form asks the city and address (the baseline's takes none).
  const details = (arm: string, index: number, gateway: string, delivery: CheckoutDetails = {}): CheckoutDetails => ({
    ...delivery,
    full_name: uniqueName(run, arm, index),
    email: "bench@example.ly",
    phone: "0912345678",
    payment_gateway: gateway,
  });
  // One untimed checkout of the first shop tells the body the raw calls send.
  const first = shops[0]!;
  const firstSession = sessions.get(first.key)![total]!;
  const probe = await checkoutOnce(
    first.url,
    firstSession.cookie,
    firstSession.hidden,
    details("x", 0, firstSession.gateway, firstSession.delivery),
    serviceOrigin,
  );
  const shape = await bodyShapeOf(emulator, probe.paymentToken);
  const gateway = firstSession.gateway;

  type Arm = { key: string; name: string; once: (index: number) => Promise<number> };
  const arms: Arm[] = [
    ...shops.map((shop, shopIndex) => ({
      key: shop.key,
      name: shop.name,
      once: async (index: number) => {
        const session = sessions.get(shop.key)![index]!;
        return (
          await checkoutOnce(
            shop.url,
            session.cookie,
            session.hidden,
            details(`${shopIndex}`, index, session.gateway, session.delivery),
            serviceOrigin,
          )
        ).elapsed;
      },
    })),
    {
      key: "baseline",
      name: "Baseline (bare Next.js app)",
      once: async (index: number) =>
        (await checkoutOnce(baselineUrl, "", baselineHidden, details("b", index, gateway), serviceOrigin)).elapsed,
    },
    {
      key: "raw",
      name: "Raw calls (fetch from the bench)",
      once: (index: number) =>
        rawOnce(emulator.apiBase, { ...shape, custom: orderLikeId(), full_name: uniqueName(run, "r", index) }),
    },
  ];
  const samples = new Map(arms.map((arm) => [arm.key, [] as number[]]));
  for (let round = 0; round < total; round++) {
    for (let step = 0; step < arms.length; step++) {
      const arm = arms[(round + step) % arms.length]!;
      const elapsed = await arm.once(round);
      if (round >= warmup) samples.get(arm.key)!.push(elapsed);
    }
  }

  await emulator.control("/config", { latencyMs: 0 });
  return {
    latencyMs,
    n,
    arms: arms.map((arm) => ({ key: arm.key, name: arm.name, summary: summary(samples.get(arm.key)!) })),
  };
}

/** p50 and p95 ratios of arm `a` over arm `b` in one run. */
export function ratio(run: LatencyRun, a: string, b: string): { p50: number; p95: number } {
  const x = run.arms.find((arm) => arm.key === a)!.summary;
  const y = run.arms.find((arm) => arm.key === b)!.summary;
  return { p50: x.p50 / y.p50, p95: x.p95 / y.p95 };
}
