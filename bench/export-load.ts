// `npm run bench:export-load`: how fast one server instance's checkouts stay while the back office downloads the
// orders' CSV at 100,000 orders, four downloads at once (the review's case: checkout p50 from 131 ms to 8.1 s).
// An embedded PostgreSQL is migrated and seeded as the full bench seeds it (bench/seed.ts); the emulator answers the
// payment calls (25 ms each, as the checkout bench); an admin signs in through the sign-in form. Then rounds of an
// idle phase and a loaded one, alternating which comes first: a checkout at a time (the real form, posted as a
// browser without JavaScript), in the loaded phase while four `/admin/orders/export` downloads run, each read as fast
// as it comes (and cancelled once the phase's checkouts are done). The instance streams one at a time
// (lib/admin/exports.ts): the others are answered 503 at once, and counted. Verdict: the checkouts' p50 beside the
// exports within 2× their idle p50; exits non-zero when over. Also printed: each export's time and size, the time to
// its first byte, and the shop's memory (RSS of its processes) at its highest.
//
// Runs the shop's production build in .next/, made first when there is none (bench/build.ts). Takes about three
// minutes on 2 cores (most of it the seeding and preparing the carts).
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import {
  createAdmin,
  migrate,
  seedTestProducts,
  startEmbeddedDatabase,
  startEmulator,
  startShop,
  stopAll,
} from "../scripts/servers";
import { addToCart, isPaymentPage, loadCheckoutForm, submitCheckout } from "../testing/no-js-shop";
import { BENCH_ADMIN, signInAdmin } from "./admin-pages";
import { ensureShopBuild } from "./build";
import { CLIENT_ID, CLIENT_SECRET } from "./checkout-latency";
import { seedOrders } from "./seed";
import { mapLimit, median, summary } from "./stats";

const ORDERS = 100_000;
const EXPORTS = 4;
const ROUNDS = 3;
/** Checkouts per phase: the loaded phase stops early when the exports have all ended. */
const CHECKOUTS = 15;
const WARMUP = 3;
const LATENCY_MS = 25;
const BUDGET = 2;

ensureShopBuild();

const emulator = await startEmulator({ output: "ignore" });
const database = await startEmbeddedDatabase();
try {
  await migrate(database.url);
  await seedTestProducts(database.url);
  const seeded = await seedOrders(database.url, ORDERS);
  await createAdmin(database.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
  console.log(`Seeded ${ORDERS.toLocaleString("en")} orders in ${(seeded.ms / 1000).toFixed(1)} s`);
  const shop = await startShop({
    output: "stderr",
    timeoutMs: 120_000,
    env: {
      DATABASE_URL: database.url,
      SITE_URL: "https://localhost:4443",
      PAYMENT_API_BASE_URL: emulator.apiBase,
      PAYMENT_CLIENT_ID: CLIENT_ID,
      PAYMENT_CLIENT_SECRET: CLIENT_SECRET,
      SESSION_SECRET: "export-bench-session-secret-0123456789",
      ORDER_LINK_SECRET: "export-bench-order-link-secret-0123456789",
      PAYMENT_WEBHOOK_SECRET: "export-bench-webhook-secret-0123456789",
      CRON_SECRET: "export-bench-cron-secret-0123456789",
      // Every checkout of the bench comes from this machine's address: the budget per address is not what is measured.
      PAYMENTS_PER_ADDRESS: "10000",
      LOG_LEVEL: "silent",
    },
  });
  await emulator.control("/config", { latencyMs: LATENCY_MS, rateLimit: 0 });
  const cookie = await signInAdmin(shop.url);
  const run = Date.now().toString(36);

  /** A shop session with one product in its cart and its checkout form, made before it is timed. */
  const session = async () => {
    const cartCookie = await addToCart(shop.url, { slug: "olive-oil", quantity: 1 });
    const form = await loadCheckoutForm(shop.url, cartCookie);
    return { cookie: cartCookie, ...form };
  };
  let checkoutsDone = 0;
  /** One checkout, timed from the form's post to the redirect to the payment page. @returns milliseconds. */
  const checkout = async (prepared: Awaited<ReturnType<typeof session>>) => {
    const index = checkoutsDone++;
    const started = performance.now();
    const result = await submitCheckout(shop.url, prepared.cookie, prepared.hidden, {
      ...prepared.delivery,
      full_name: `Export bench ${run} ${String(index).padStart(5, "0")}`,
      email: "bench@example.ly",
      phone: "0912345678",
      payment_gateway: prepared.gateways[0]!,
    });
    const elapsed = performance.now() - started;
    if (result.status !== 303 || !isPaymentPage(result.location, emulator.url))
      throw new Error(`checkout answered ${result.status} ${result.location ?? ""} (expected 303 to the payment page)`);
    return elapsed;
  };

  /** The shop's processes' resident memory, in MB (the standalone server and any worker it runs, one process group). */
  const shopRssMb = () => {
    const lines = execFileSync("ps", ["-o", "rss=", "-g", String(shop.child.pid)], { encoding: "utf8" });
    return lines.split("\n").reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
  };

  /**
   * One download of the orders' CSV, read as fast as it comes until its end or until `signal` stops it (the browser
   * cancelling: the instance must then give its slot back). @returns its status, the bytes read and whether it ended.
   */
  const download = async (signal: AbortSignal) => {
    const started = performance.now();
    const response = await fetch(`${shop.url}/admin/orders/export`, { headers: { Cookie: cookie }, signal });
    let bytes = 0;
    let firstByteMs: number | undefined;
    let complete = true;
    try {
      const reader = response.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        firstByteMs ??= performance.now() - started;
        bytes += chunk.value.byteLength;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
      complete = false;
    }
    return { status: response.status, bytes, complete, firstByteMs: firstByteMs ?? 0, ms: performance.now() - started };
  };

  console.log(`Preparing ${ROUNDS * 2 * CHECKOUTS + WARMUP} carts (untimed)…`);
  const carts = await mapLimit(Array.from({ length: ROUNDS * 2 * CHECKOUTS + WARMUP }), 4, session);
  for (const cart of carts.splice(0, WARMUP)) await checkout(cart);

  const rounds: { idle: number[]; loaded: number[]; exports: Awaited<ReturnType<typeof download>>[]; rss: number }[] =
    [];
  const loadBefore = loadavg()[0]!;
  for (let round = 0; round < ROUNDS; round++) {
    const idlePhase = async () => {
      const times: number[] = [];
      for (const cart of carts.splice(0, CHECKOUTS)) times.push(await checkout(cart));
      return times;
    };
    const loadedPhase = async () => {
      let running = EXPORTS;
      let rss = shopRssMb();
      const stop = new AbortController();
      const downloads = Array.from({ length: EXPORTS }, () => download(stop.signal).finally(() => (running -= 1)));
      const sampler = setInterval(() => (rss = Math.max(rss, shopRssMb())), 250);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the exports under way before the first checkout
      const times: number[] = [];
      const mine = carts.splice(0, CHECKOUTS);
      for (const cart of mine) {
        if (running === 0 && times.length >= 5) break;
        times.push(await checkout(cart));
      }
      stop.abort(); // the checkouts are measured: the exports still running are cancelled, as a browser would
      const exports = await Promise.all(downloads);
      clearInterval(sampler);
      return { times, exports, rss };
    };
    const idleFirst = round % 2 === 0;
    const idle = idleFirst ? await idlePhase() : undefined;
    const loaded = await loadedPhase();
    const idleTimes = idle ?? (await idlePhase());
    rounds.push({ idle: idleTimes, loaded: loaded.times, exports: loaded.exports, rss: loaded.rss });
    const streamed = loaded.exports.filter((e) => e.status === 200);
    console.log(
      `  round ${round + 1}: checkout p50 idle ${median(idleTimes).toFixed(1)} ms, beside the exports ` +
        `${median(loaded.times).toFixed(1)} ms (n = ${loaded.times.length}); exports ` +
        loaded.exports
          .map((e) => `${e.status} ${(e.bytes / 1e6).toFixed(1)} MB in ${(e.ms / 1000).toFixed(1)} s`)
          .join(", ") +
        `; first byte after ${streamed.map((e) => e.firstByteMs.toFixed(0)).join(", ")} ms; shop RSS at most ${loaded.rss.toFixed(0)} MB`,
    );
  }
  const idle = summary(rounds.flatMap((r) => r.idle));
  const loaded = summary(rounds.flatMap((r) => r.loaded));
  const ratio = loaded.p50 / idle.p50;
  console.log(
    `\nCheckouts at ${ORDERS.toLocaleString("en")} orders, ${LATENCY_MS} ms per payment call; load average ` +
      `${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  console.log(`  idle:                  p50 ${idle.p50.toFixed(1)} ms, p95 ${idle.p95.toFixed(1)} ms (n = ${idle.n})`);
  console.log(
    `  beside ${EXPORTS} exports:      p50 ${loaded.p50.toFixed(1)} ms, p95 ${loaded.p95.toFixed(1)} ms (n = ${loaded.n})`,
  );
  console.log(`  ratio of p50s ${ratio.toFixed(2)} (budget ${BUDGET}): ${ratio <= BUDGET ? "within" : "OVER"} budget`);
  if (ratio > BUDGET) process.exitCode = 1;
} finally {
  await stopAll();
  await database.stop();
}
