// `npm run bench:storefront`: the storefront at 1,000 products. An embedded PostgreSQL is migrated and seeded straight
// with SQL — 1,000 products named in both languages, in a sort order unlike their ids, a third of them with stock
// counted, a few sold out and a few hidden, each with pictures — and 300 unpaid checkouts whose payment pages are alive
// hold units of the counted ones (so the held-stock sum has work), beside 3,000 orders whose holds are over. The shop's
// production build then answers, and the bench times over loopback, request sent to last byte read (as
// bench/admin-pages.ts does), 200 requests each of the home page, its 20th page and a product page, interleaved, one at
// a time, after a warm-up. Verdict: every page's p95 within 50 ms; exits non-zero when one is over.
//
// Runs the shop's production build in .next/, made first when there is none (bench/build.ts). Takes
// about a minute on 2 cores.
import { availableParallelism, loadavg } from "node:os";
import { Pool } from "pg";
import { migrate, startEmbeddedDatabase, startShop, stopAll } from "../scripts/servers";
import { ensureShopBuild } from "./build";
import { summary, type Summary } from "./stats";

const PRODUCTS = 1_000;
const REQUESTS = 200;
const WARMUP = 20;
const BUDGET_MS = 50;
/** Products a page of the home page shows (lib/catalog/products.ts's PAGE_SIZE). */
const PAGE_SIZE = 24;

ensureShopBuild();

/** The catalogue and the orders holding its stock, as SQL statements run in order. */
const SEED = [
  // Two stored pictures (their bytes are never served here: the pages only name them).
  `insert into images (hash, width, height, bytes)
   values (repeat('a', 64), 1200, 1200, '\\x00'::bytea), (repeat('b', 64), 400, 400, '\\x00'::bytea)`,
  // i * 37 mod 1000 is a permutation: the merchant's order is not the ids' order. Every 40th hidden (25), every third
  // counted (5 to 24 on hand), every 17th otherwise counted and sold out.
  `insert into products (slug, name_en, name_ar, description_en, description_ar, price_minor, visible, kind, stock,
                         sort_order)
   select 'bench-product-' || i, 'Bench product ' || i, 'منتج القياس ' || i,
          'Product number ' || i || ' of the storefront bench, described in a sentence or two like a real one.',
          'المنتج رقم ' || i || ' من منتجات قياس واجهة المتجر، موصوف بجملة أو جملتين كمنتج حقيقي.',
          500 + (i * 7919) % 50000, i % 40 <> 0, case when i % 10 = 0 then 'digital' else 'physical' end,
          case when i % 3 = 0 then 5 + i % 20 when i % 17 = 0 then 0 end, (i * 37) % ${PRODUCTS}
   from generate_series(1, ${PRODUCTS}) as i`,
  `insert into product_pictures (product_id, position, large, small)
   select id, position, repeat('a', 64), repeat('b', 64)
   from products cross join generate_series(0, 1) as position
   where position = 0 or id % 4 = 0`,
  // 3,300 orders: every 11th pending with its payment page alive (holding), the rest paid or expired long ago.
  `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, payment_token,
                       payment_expires_at, claim_expires_at, created_at, updated_at)
   select 'ord_bench' || lpad(i::text, 23, '0'), 'bench-session-' || i, md5('fingerprint-' || i),
          case when i % 11 = 0 then 'pending' when i % 2 = 0 then 'paid' else 'expired' end, 1000, 'LYD', 'en',
          'bench_' || md5('token-' || i),
          case when i % 11 = 0 then now() + interval '1 hour' else now() - interval '1 day' end,
          now() - interval '1 day', now() - interval '1 day', now() - interval '1 day'
   from generate_series(1, 3300) as i`,
  // Two lines an order, on counted products (ids divisible by 3 hold stock; the product ids are 1 to 1,000).
  `insert into order_lines (order_id, position, product_id, product_slug, name, unit_minor, quantity)
   select orders.id, line, product, 'bench-product-' || product, 'Bench product ' || product, 500, 1
   from orders cross join generate_series(0, 1) as line
   cross join lateral (select 3 * (1 + (substr(orders.id, 10)::int * 7 + line * 101) % 333) as product) as chosen`,
  "analyze",
];

interface Target {
  name: string;
  path: string;
  /** Text the page must contain (the right page was served, not an error page). */
  expect: string;
}

async function timeOnce(url: string, target: Target): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { Accept: "text/html", "Accept-Language": "en" }, redirect: "manual" });
  const html = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${target.path} answered ${response.status}`);
  if (!html.includes(target.expect)) throw new Error(`GET ${target.path} did not show "${target.expect}"`);
  return elapsed;
}

const database = await startEmbeddedDatabase();
try {
  await migrate(database.url);
  const pool = new Pool({ connectionString: database.url, max: 1 });
  try {
    for (const statement of SEED) await pool.query(statement);
    const visible = await pool.query<{ n: number }>("select count(*)::int as n from products where visible");
    const held = await pool.query<{ n: number }>(
      `select count(*)::int as n from order_lines join orders on orders.id = order_id
       where status = 'pending' and payment_expires_at > now()`,
    );
    console.log(
      `Seeded ${PRODUCTS} products (${visible.rows[0]!.n} visible, ` +
        `${Math.ceil(visible.rows[0]!.n / PAGE_SIZE)} pages) and ${held.rows[0]!.n} order lines holding stock`,
    );
  } finally {
    await pool.end();
  }
  // Page 20's first product in the merchant's order, and a counted product's page (its stock summed from the holds).
  const first20 = (20 - 1) * PAGE_SIZE;
  const ranks = Array.from({ length: PRODUCTS }, (_, k) => k + 1)
    .filter((i) => i % 40 !== 0)
    .sort((a, b) => ((a * 37) % PRODUCTS) - ((b * 37) % PRODUCTS) || a - b);
  const targets: Target[] = [
    { name: "Home, page 1", path: "/", expect: `Bench product ${ranks[0]}<` },
    { name: "Home, page 20", path: "/?page=20", expect: `Bench product ${ranks[first20]}<` },
    { name: "Product page", path: "/products/bench-product-300", expect: "Bench product 300<" },
  ];

  const shop = await startShop({
    output: "stderr",
    timeoutMs: 120_000,
    env: {
      DATABASE_URL: database.url,
      SITE_URL: "https://localhost:4443",
      // Never called: no page measured here starts a payment.
      PAYMENT_API_BASE_URL: "http://127.0.0.1:9/pay/sandbox/api/v1",
      PAYMENT_CLIENT_ID: "bench-client-id",
      PAYMENT_CLIENT_SECRET: "bench-client-secret",
      SESSION_SECRET: "storefront-bench-session-secret-32-chars",
      ORDER_LINK_SECRET: "storefront-bench-order-link-secret-32-chars",
      PAYMENT_WEBHOOK_SECRET: "storefront-bench-webhook-secret",
      LOG_LEVEL: "silent",
    },
  });
  const samples = targets.map(() => [] as number[]);
  const loadBefore = loadavg()[0]!;
  for (let round = 0; round < WARMUP + REQUESTS; round++) {
    for (const [k, target] of targets.entries()) {
      const elapsed = await timeOnce(`${shop.url}${target.path}`, target);
      if (round >= WARMUP) samples[k]!.push(elapsed);
    }
  }

  const results: { target: Target; summary: Summary }[] = targets.map((target, k) => ({
    target,
    summary: summary(samples[k]!),
  }));
  // The machine's other work shows in the tail: the load says whether the run had the cores to itself.
  console.log(
    `\n${REQUESTS} requests each, at ${PRODUCTS} products (budget: p95 ≤ ${BUDGET_MS} ms); ` +
      `load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  for (const { target, summary: s } of results) {
    console.log(
      `  ${target.name.padEnd(14)} ${target.path.padEnd(30)} p50 ${s.p50.toFixed(1).padStart(6)} ms   ` +
        `p95 ${s.p95.toFixed(1).padStart(6)} ms   max ${s.max.toFixed(1).padStart(6)} ms   ` +
        (s.p95 <= BUDGET_MS ? "within" : "OVER"),
    );
  }
  const over = results.filter((result) => result.summary.p95 > BUDGET_MS);
  console.log(over.length === 0 ? "Every page within budget" : `${over.length} page(s) OVER budget`);
  if (over.length > 0) process.exitCode = 1;
} finally {
  await stopAll();
  await database.stop();
}
