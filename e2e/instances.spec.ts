import { startShop, type RunningApp } from "../scripts/servers";
import { addToCart, getPage, isPaymentPage, loadCheckoutForm, submitCheckout } from "../testing/no-js-shop";
import { database, emulator, expect, shop, stack, test } from "./support";

/**
 * A serverless host runs the shop on many instances with no shared memory. Two more shop processes (`npm start`) on their own
 * ports share the worker's database and emulator (the tests tagged `@pooler` reach it through PgBouncer, playwright.config.ts):
 * the guarantees of a checkout — one payment per cart, the budget of new payments per client address — hold across
 * them, and an order is the database's, not a process's. Started by scripts/servers.ts, as the benchmarks start the
 * shop; with the default budget (PAYMENTS_PER_ADDRESS, 10), where the worker's own shop has a large one, and trusting
 * no proxy, as a plain `npm start` does, where the worker's own shop trusts one (e2e/shop-env.json): a client is the
 * address it connects from (127.0.0.x, see submitCheckout's `from`), whatever X-Forwarded-For it writes.
 */
const instanceUrl = (port: number) => `http://localhost:${port}`;
let instances: RunningApp[] = [];

/** Both instances, or neither: one that started is stopped again when the other does not. */
async function startInstances(): Promise<void> {
  const ports = stack().sparePorts.slice(0, 2);
  const env = (port: number) => ({
    ...stack().env,
    SITE_URL: instanceUrl(port),
    PAYMENTS_PER_ADDRESS: "10",
    TRUSTED_PROXY_HOPS: "0",
  });
  const results = await Promise.allSettled(ports.map((port) => startShop({ port, env: env(port) })));
  instances = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await stopInstances();
    throw failed.reason;
  }
}
async function stopInstances(): Promise<void> {
  await Promise.all(instances.map((instance) => instance.stop()));
  instances = [];
}

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await startInstances();
});
test.afterAll(stopInstances);
test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/** Where each answer of the checkout sent the customer: `payment` (the payment page) or the path it named. */
const destinations = (answers: { location: string | null }[]) =>
  answers.map(({ location }) => (isPaymentPage(location, stack().emulatorUrl) ? "payment" : location));

test(
  "ten identical checkout posts alternated between two instances make one payment; a third instance shows the order",
  { tag: "@pooler" },
  async ({ request }) => {
    const [a, b] = instances.map((instance) => instance.url) as [string, string];
    const cookie = await addToCart(a, { slug: "saffron", quantity: 2 });
    const { hidden, delivery } = await loadCheckoutForm(a, cookie);
    const details = { ...delivery, full_name: "Salem Fathi", email: "salem@example.ly", payment_gateway: "" };
    // From an address of its own: the worker's other tests pay from 127.0.0.1, and these instances keep the default
    // budget of new payments per address.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        submitCheckout(i % 2 ? b : a, cookie, hidden, details, { from: "127.0.3.1" }),
      ),
    );

    for (const answer of answers) expect(answer.status).toBe(303);
    expect(new Set(answers.map((answer) => answer.location)).size).toBe(1);
    expect(destinations(answers)).toEqual(Array(10).fill("payment"));
    const payments = await emulator.payments(request);
    expect(payments).toHaveLength(1);
    const orderId = payments[0]!.custom!;
    expect(orderId).toMatch(/^ord_/);

    // The order is in the database, not in either process: a third one, the worker's own shop, which never saw this
    // checkout, shows it to the same customer. (Restarting the two instances proved the same at four server starts.)
    const sessionCookie = answers.find((answer) => answer.cookie)?.cookie ?? cookie;
    const html = await getPage(`${stack().shopUrl}/orders/${orderId}`, sessionCookie);
    expect(html).toContain(orderId);
    expect(html).toContain("Waiting for your payment");
  },
);

test("a cart paid the moment its page opens is paid once: the tabs that submit after it, or after the customer closed the page, go to the paid order", async ({
  request,
}) => {
  // A service that confirms a payment as soon as its page opens (the emulator's payOnView), so the webhook marks the
  // order paid before the customer's browser is back to empty the cart.
  expect((await request.post(`${stack().emulatorUrl}/__emulator/config`, { data: { payOnView: true } })).ok()).toBe(
    true,
  );
  const [a, b] = instances.map((instance) => instance.url) as [string, string];
  const cookie = await addToCart(a, { slug: "olive-oil", quantity: 1 });
  const { hidden, delivery } = await loadCheckoutForm(b, cookie);
  const details = { ...delivery, full_name: "Huda Elmagri", email: "", payment_gateway: "sadad" };
  const submit = (count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        submitCheckout(i % 2 ? b : a, cookie, hidden, details, { from: "127.0.3.2" }),
      ),
    );

  // Five tabs submit at once; the first to reach the payment page pays there, and closes it before it redirects.
  const early = await submit(5);
  expect(destinations(early)).toEqual(Array(5).fill("payment"));
  expect((await fetch(early[0]!.location!)).status).toBe(200);
  const [payment] = await emulator.payments(request);
  expect(payment).toMatchObject({ status: "paid" });
  const orderId = payment!.custom!;
  await expect
    .poll(() => database(async (pool) => (await pool.query("select status from orders where id = $1", [orderId])).rows))
    .toEqual([{ status: "paid" }]);

  // Five more tabs, on both instances, and later the same customer pressing the button again: the paid order.
  const late = [...(await submit(5)), ...(await submit(1))];
  expect(destinations(late)).toEqual(Array(6).fill(`/orders/${orderId}`));
  expect(await emulator.payments(request)).toHaveLength(1);
  // And the cart is emptied, as after coming back from paying.
  const cart = await getPage(`${a}/cart`, late.at(-1)!.cookie);
  expect(cart).toContain(shop("cart.emptyTitle", "en"));
});

test("one address flooding the checkout, claiming a new address in X-Forwarded-For each time, keeps the payment service's allowance for everyone else", async ({
  request,
}) => {
  // The service allows 60 calls a minute from the shop's address, and each new payment costs two
  // (docs/payment-service.md, "Rate limit"). One client submits 25 checkouts, each with a fresh session and a made-up
  // X-Forwarded-For, which a shop trusting no proxy ignores; then twelve customers at other addresses check out.
  expect((await request.post(`${stack().emulatorUrl}/__emulator/config`, { data: { rateLimit: 60 } })).ok()).toBe(true);
  const [a, b] = instances.map((instance) => instance.url) as [string, string];
  const checkout = async (base: string, from: string, headers: Record<string, string> = {}) => {
    const cookie = await addToCart(base, { slug: "saffron" });
    const { hidden, delivery } = await loadCheckoutForm(base, cookie);
    return submitCheckout(base, cookie, hidden, delivery, { from, headers });
  };

  const flood = [];
  for (let i = 0; i < 25; i++)
    flood.push(await checkout(i % 2 ? b : a, "127.0.0.66", { "X-Forwarded-For": `192.0.2.${i + 1}` }));
  const customers = await Promise.all(
    Array.from({ length: 12 }, (_, i) => checkout(i % 2 ? b : a, `127.0.1.${i + 1}`)),
  );

  expect(destinations(customers)).toEqual(Array(12).fill("payment"));
  // The flood got its ten payments, and then a message; the service was not asked for more.
  expect(destinations(flood).filter((where) => where === "payment")).toHaveLength(10);
  const refused = flood.find((answer) => answer.status === 200)!;
  expect(refused.html).toContain("Many payments were started from your network in the last few minutes");
  expect(await emulator.payments(request)).toHaveLength(22);
});

test(
  "the last 3 units, wanted by 20 customers at once on two instances: 3 payments, and everyone else is told the paying checkouts hold them, cart kept",
  { tag: "@pooler" },
  async ({ request }) => {
    const slug = `last-jars-${crypto.randomUUID().slice(0, 8)}`;
    await database((pool) =>
      pool.query(
        `insert into products (slug, name_en, name_ar, price_minor, stock) values ($1, 'Honey, the last jars', 'عسل', 3000, 3)`,
        [slug],
      ),
    );
    const [a, b] = instances.map((instance) => instance.url) as [string, string];
    // Twenty customers, each at an address of their own, each with one jar in the cart, submit at once.
    const customers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const base = i % 2 ? b : a;
        const cookie = await addToCart(base, { slug });
        const { hidden, delivery } = await loadCheckoutForm(base, cookie);
        return { base, cookie, hidden, delivery, from: `127.0.2.${i + 1}` };
      }),
    );
    const answers = await Promise.all(
      customers.map(({ base, cookie, hidden, delivery, from }) =>
        submitCheckout(base, cookie, hidden, { ...delivery, full_name: "Mabrouka Salem" }, { from }),
      ),
    );

    expect(destinations(answers).filter((where) => where === "payment")).toHaveLength(3);
    expect(await emulator.payments(request)).toHaveLength(3);
    // The jars are on hand but held by the 3 paying: "held by other checkouts — try again in N minutes", not sold out.
    const held = shop("problems.heldLine", "en")
      .replace("{name}", "Honey, the last jars")
      .replace(/ \{minutes, plural.*\}$/, "");
    const refused = answers.filter((answer) => answer.status === 200);
    expect(refused).toHaveLength(17);
    for (const answer of refused) expect(answer.html).toContain(held);
    // Their carts are kept: the jar is still in each.
    const [first] = refused.map((answer) => customers[answers.indexOf(answer)]!);
    expect(await getPage(`${first!.base}/cart`, first!.cookie)).toContain("Honey, the last jars");
  },
);

test("a promo code with 10 uses left, wanted by 50 customers at once on two instances: exactly 10 orders carry it, and the other 40 are told it is used up, cart kept", async ({
  request,
}) => {
  const slug = `maamoul-${crypto.randomUUID().slice(0, 8)}`;
  const code = `RACE${crypto.randomUUID().replaceAll("-", "").slice(0, 8).toUpperCase()}`;
  await database(async (pool) => {
    await pool.query(
      `insert into products (slug, name_en, name_ar, price_minor) values ($1, 'Maamoul', 'معمول', 2000)`,
      [slug],
    );
    await pool.query(`insert into promo_codes (code, kind, percent, max_uses) values ($1, 'percent', 10, 10)`, [code]);
  });
  const [a, b] = instances.map((instance) => instance.url) as [string, string];
  // Fifty customers, each at an address of their own, each with the code, submit at once.
  const customers = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const base = i % 2 ? b : a;
      const cookie = await addToCart(base, { slug });
      const { hidden, delivery } = await loadCheckoutForm(base, cookie);
      return { base, cookie, hidden, delivery, from: `127.0.5.${i + 1}` };
    }),
  );
  const answers = await Promise.all(
    customers.map(({ base, cookie, hidden, delivery, from }) =>
      submitCheckout(base, cookie, hidden, { ...delivery, full_name: "Amal Saad", promo_code: code }, { from }),
    ),
  );

  expect(destinations(answers).filter((where) => where === "payment")).toHaveLength(10);
  expect(await emulator.payments(request)).toHaveLength(10);
  const carrying = await database(
    async (pool) =>
      (await pool.query(`select count(*)::int as n from orders where promo_code = $1 and discount_minor = 200`, [code]))
        .rows[0].n,
  );
  expect(carrying).toBe(10);
  const usedUp = shop("checkout.promo.usedUp", "en").replace("{code}", `\u2066${code}\u2069`);
  const refused = answers.filter((answer) => answer.status === 200);
  expect(refused).toHaveLength(40);
  for (const answer of refused) expect(answer.html).toContain(usedUp);
  const [first] = refused.map((answer) => customers[answers.indexOf(answer)]!);
  expect(await getPage(`${first!.base}/cart`, first!.cookie)).toContain("Maamoul");
});
