// 100 000 orders for the back-office measurements, written straight into the bench's database with SQL after the
// migrations. Varied like a shop's two years: created every ~10 minutes (the newest 15 minutes old, so the expiry of
// dead payments has nothing to do), mostly paid (paid three minutes after the checkout began, with the gateway the
// service named; two in three of them fulfilled, one in 500 flagged and half of those flags resolved), some
// expired, cancelled or failed; 40 000 customers with two or three orders each, each with an e-mail (four
// domains) and a Libyan mobile number; one line each from the catalogue, the amount its price × quantity.
import { Pool } from "pg";
import { TEST_PRODUCTS } from "../testing/catalogue";

/** Catalogue lines (the tests' products, testing/catalogue.ts, which the bench seeds first): slug, name, price. */
const PRODUCTS: [string, string, number][] = TEST_PRODUCTS.map((product) => [
  product.slug,
  product.nameEn,
  product.priceMinor,
]);
const CUSTOMERS = 40_000;

const sqlArray = (values: (string | number)[]) =>
  `array[${values.map((value) => (typeof value === "number" ? value : `'${value}'`)).join(",")}]`;

/** The seeding statements for `count` orders (order i: 1 = oldest, count = newest). */
function statements(count: number): string[] {
  const slugs = sqlArray(PRODUCTS.map(([slug]) => slug));
  const names = sqlArray(PRODUCTS.map(([, name]) => name));
  const prices = sqlArray(PRODUCTS.map(([, , price]) => price));
  // A deterministic pseudo-random number 0…9999 per order and purpose.
  const r = (purpose: string) => `(('x' || substr(md5('${purpose}' || i), 1, 7))::bit(28)::int % 10000)`;
  return [
    `create temporary table bench_seed as
     select i,
            'ord_' || substr(md5('bench-order-' || i), 1, 16) as id,
            date_trunc('milliseconds', now() - interval '15 minutes' - (${count} - i) * interval '631 seconds' - ${r("jitter")} * interval '30 milliseconds') as at,
            1 + ${r("product")} % ${PRODUCTS.length} as product,
            1 + ${r("quantity")} % 3 as quantity,
            case when ${r("status")} < 7000 then 'paid' when ${r("status")} < 8500 then 'expired' when ${r("status")} < 9500 then 'cancelled' else 'failed' end as status,
            i % ${CUSTOMERS} as customer
     from generate_series(1, ${count}) as i`,
    `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, full_name, email, phone, payment_gateway,
                         payment_token, payment_url, payment_expires_at, claim_expires_at, failure, customer_returned_at, flags,
                         resolved_flags, fulfilled_at, paid_at, paid_gateway, created_at, updated_at)
     select id, 'bench-session-' || customer, substr(md5('fingerprint-' || i), 1, 32), status,
            (${prices})[product] * quantity, 'LYD', case when customer % 3 = 0 then 'ar' else 'en' end,
            'Customer ' || customer,
            'customer' || customer || '@' || (array['example.ly','mail.ly','shop.ly','libyana.ly'])[1 + customer % 4],
            '09' || (array['1','2','4','5'])[1 + customer % 4] || lpad(((customer * 7919) % 10000000)::text, 7, '0'),
            (array['sadad','edfali','mobicash','moamalat'])[1 + i % 4],
            case when status = 'failed' then null else 'bench_' || md5('token-' || i) end,
            case when status = 'failed' then null else 'http://127.0.0.1:4210/pay/sandbox/v1/user/payment/preview/bench_' || md5('token-' || i) end,
            case when status = 'failed' then null else at + interval '601 seconds' end,
            at + interval '25 seconds',
            case when status = 'failed' then 'server_error' end,
            case when status = 'paid' then at + interval '2 minutes' end,
            case when status = 'paid' and i % 500 = 0 then array['amount_mismatch'] else '{}'::text[] end,
            case when status = 'paid' and i % 1000 = 0 then array['amount_mismatch'] else '{}'::text[] end,
            case when status = 'paid' and i % 3 <> 0 then at + interval '1 day' end,
            case when status = 'paid' then at + interval '3 minutes' end,
            case when status = 'paid' then (array['sadad','edfali','mobicash','moamalat','yaser-pay'])[1 + i % 5] end,
            at, at
     from bench_seed`,
    `insert into order_lines (order_id, position, product_id, product_slug, name, unit_minor, quantity)
     select bench_seed.id, 0, products.id, (${slugs})[product], (${names})[product], (${prices})[product], quantity
     from bench_seed join products on products.slug = (${slugs})[product]`,
    "drop table bench_seed",
    // What autovacuum would have done on a database that grew to this size: statistics, and (PostgreSQL 13 and later
    // vacuum a table after inserts too) the visibility map that lets a count read an index alone.
    "vacuum analyze orders",
    "analyze order_lines",
  ];
}

/** What the admin measurements look for in the seeded orders. */
export interface SeededOrders {
  count: number;
  /** An e-mail with a few orders. */
  email: string;
  emailOrders: number;
  /** One order's id. */
  orderId: string;
  /** The `before` cursor of the list 90 % of the way down (the page after the order at that position, newest first). */
  deepCursor: string;
  deepPosition: number;
  /** Orders with status paid. */
  paid: number;
  /** Orders with a flag not resolved (what the list's "flagged" filter shows). */
  flagged: number;
  ms: number;
}

/** Seeds `count` orders into the (migrated, otherwise empty) database at `url`. */
export async function seedOrders(url: string, count: number): Promise<SeededOrders> {
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  try {
    const started = performance.now();
    for (const statement of statements(count)) await pool.query(statement);
    const ms = performance.now() - started;
    const email = "customer1234@shop.ly"; // customer 1234: 1234 % 4 = 2 → shop.ly
    const [{ rows: byEmail }, { rows: one }, { rows: paid }, { rows: flagged }] = await Promise.all([
      pool.query<{ n: string }>("select count(*) as n from orders where lower(email) = $1", [email]),
      pool.query<{ id: string }>(
        "select id from orders where id like 'ord_%' order by created_at desc, id desc offset $1 limit 1",
        [Math.floor(count / 2)],
      ),
      pool.query<{ n: string }>("select count(*) as n from orders where status = 'paid'"),
      pool.query<{ n: string }>("select count(*) as n from orders where needs_attention"),
    ]);
    const deepPosition = Math.floor(count * 0.9);
    const { rows: deep } = await pool.query<{ created_at: Date; id: string }>(
      "select created_at, id from orders order by created_at desc, id desc offset $1 limit 1",
      [deepPosition - 1],
    );
    const edge = deep[0]!;
    // lib/admin/orders.ts's cursor: base64url of "<ISO time>|<order id>".
    const deepCursor = Buffer.from(`${edge.created_at.toISOString()}|${edge.id}`).toString("base64url");
    return {
      count,
      email,
      emailOrders: Number(byEmail[0]!.n),
      orderId: one[0]!.id,
      deepCursor,
      deepPosition,
      paid: Number(paid[0]!.n),
      flagged: Number(flagged[0]!.n),
      ms,
    };
  } finally {
    await pool.end();
  }
}
