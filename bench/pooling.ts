// `npm run bench:pooling`: what a serverless deploy does to the database's connections. Twenty shop processes
// (the standalone server, one per "instance", each with its own pool of 5) share one PostgreSQL whose max_connections is 50,
// and take 200 concurrent checkouts (no JavaScript: add to cart, open the checkout, submit), first connected
// directly, then through PgBouncer in transaction mode (20 server connections). It reports, per path: failed
// checkouts, checkout latency p50/p95, and the most client connections the server held at once. Runs the production
// build in .next/ (made first when there is none) and needs PgBouncer. Takes about three minutes on 2 cores.
//
// One process plays the 200 customers, sharing keep-alive connections to each instance. Starved of CPU by 20 servers
// on 2 cores, it reads an answer seconds after the server sent it, so a connection it reuses "2 s later" has been idle
// on the server for more than Node's default keep-alive of 5 s: the server closes it as the next request is written,
// and that request fails with EPIPE, ECONNRESET or "other side closed" (measured while setting up the carts: 5 to 81
// of their 600 requests failed in 4 of 11 runs). The client's own idle timer (the server's hint minus 1 s) runs late
// too, so it cannot help. The instances keep idle connections for longer than a whole run: only the client closes one.
import { Pool } from "pg";
import { addToCart, isPaymentPage, loadCheckoutForm, submitCheckout } from "../testing/no-js-shop";
import {
  migrate,
  type RunningApp,
  seedTestProducts,
  startEmbeddedDatabase,
  startEmulator,
  startPgBouncer,
  startShop,
  stopAll,
} from "../scripts/servers";
import { ensureShopBuild } from "./build";
import { summary } from "./stats";

const INSTANCES = 20;
const CHECKOUTS = 200;
const MAX_CONNECTIONS = 50;
const FIRST_SHOP_PORT = 3300;
const POOLER_PORT = 4321;
/** The instances' keep-alive: longer than a run (about 3 minutes), so the server never closes an idle connection. */
const KEEP_ALIVE_MS = 10 * 60_000;

ensureShopBuild();
const database = await startEmbeddedDatabase({ settings: { max_connections: String(MAX_CONNECTIONS) } });
const emulator = await startEmulator({ output: "ignore" });
const pooler = await startPgBouncer({ port: POOLER_PORT, upstreamPort: database.port, poolSize: 20 });
await migrate(database.url);
await seedTestProducts(database.url);
const poolerUrl = `postgresql://postgres:postgres@127.0.0.1:${POOLER_PORT}/postgres`;

/** Twenty instances of the shop on `databaseUrl`. */
async function startInstances(databaseUrl: string): Promise<RunningApp[]> {
  const instances: RunningApp[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const port = FIRST_SHOP_PORT + i;
    instances.push(
      await startShop({
        port,
        timeoutMs: 120_000,
        keepAliveTimeoutMs: KEEP_ALIVE_MS,
        env: {
          DATABASE_URL: databaseUrl,
          SITE_URL: `http://localhost:${port}`,
          PAYMENT_API_BASE_URL: emulator.apiBase,
          PAYMENT_CLIENT_ID: "sandbox-demo-client-id",
          PAYMENT_CLIENT_SECRET: "sandbox-demo-client-secret",
          SESSION_SECRET: "pooling-bench-session-secret-32-characters",
          ORDER_LINK_SECRET: "pooling-bench-order-link-secret-32-characters",
          PAYMENT_WEBHOOK_SECRET: "pooling-bench-webhook-secret",
          LOG_LEVEL: "silent",
          // All 200 checkouts come from this machine's address: the budget per address is not what is measured.
          PAYMENTS_PER_ADDRESS: "10000",
          HELD_UNITS_PER_ADDRESS: "100000",
        },
      }),
    );
  }
  return instances;
}

/** The most client connections PostgreSQL holds at once while `work` runs, sampled every 50 ms. */
async function peakConnections<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const monitor = new Pool({ connectionString: database.url, max: 1 });
  let peak = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await monitor.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where backend_type = 'client backend'",
      );
      peak = Math.max(peak, rows[0]!.n - 1); // not this monitor's own connection
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    return { result: await work(), peak };
  } finally {
    running = false;
    await sampling;
    await monitor.end();
  }
}

/**
 * 200 checkouts at once, spread over the instances: each its own cart; the submit is timed. Filling the cart reads
 * the catalogue from the database too, so on a starved database a customer may fail before the checkout: that
 * counts as a failed checkout, with its reason.
 */
async function checkouts(instances: RunningApp[]): Promise<{ failed: number; errors: string[]; ms: number[] }> {
  const errors: string[] = [];
  const ms: number[] = [];
  const carts = await Promise.all(
    Array.from({ length: CHECKOUTS }, async (_, i) => {
      const base = instances[i % instances.length]!.url;
      try {
        const cookie = await addToCart(base, { slug: "saffron" });
        return [{ base, cookie, form: await loadCheckoutForm(base, cookie) }];
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
        return [];
      }
    }),
  );
  await Promise.all(
    carts.flat().map(async ({ base, cookie, form }) => {
      const started = performance.now();
      try {
        const answer = await submitCheckout(base, cookie, form.hidden, {
          ...form.delivery,
          full_name: "Load Test",
          email: "load@example.ly",
          phone: "0912345678",
          payment_gateway: "sadad",
        });
        // A 200 is the checkout page again, saying the order could not be stored.
        if (answer.status === 200) errors.push("order not stored");
        else if (answer.status !== 303 || !isPaymentPage(answer.location, emulator.url))
          errors.push(`HTTP ${answer.status} ${answer.location ?? ""}`);
        else ms.push(performance.now() - started);
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }),
  );
  return { failed: errors.length, errors, ms };
}

const rows: string[] = [];
try {
  for (const [path, url] of [
    ["direct", database.url],
    ["PgBouncer (transaction mode)", poolerUrl],
  ] as const) {
    console.log(`▶ ${INSTANCES} instances, ${path}`);
    const instances = await startInstances(url);
    await emulator.control("/reset", {});
    const { result, peak } = await peakConnections(() => checkouts(instances));
    const latency = result.ms.length ? summary(result.ms) : undefined;
    const reasons = [...new Set(result.errors.map((error) => error.slice(0, 80)))].slice(0, 3).join("; ");
    rows.push(
      `| ${path} | ${result.failed} of ${CHECKOUTS}${reasons ? ` (${reasons})` : ""} | ${latency ? `${latency.p50.toFixed(0)} ms` : "—"} | ${latency ? `${latency.p95.toFixed(0)} ms` : "—"} | ${peak} of ${MAX_CONNECTIONS} |`,
    );
    console.log(rows.at(-1));
    await Promise.all(instances.map((instance) => instance.stop()));
  }
} finally {
  await stopAll();
  await pooler.stop();
  await database.stop();
}

console.log(
  `\n${INSTANCES} shop instances (pool of 5 each), ${CHECKOUTS} concurrent checkouts, PostgreSQL max_connections = ${MAX_CONNECTIONS}:\n`,
);
console.log("| Path | Failed checkouts | p50 | p95 | Peak server connections |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);
