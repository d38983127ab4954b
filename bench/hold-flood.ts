// `npm run bench:hold-flood`: can one client make a product with 20 units unavailable to real customers by starting
// checkouts it never pays for? A production shop (the standalone server of the build in .next/, made first unless
// `--no-build`), the emulator, one product with 20 units on hand. For 60 s ONE attacker, from 127.0.0.1, starts
// checkouts as fast as it can — each a new session and cart of as many units as the product page lets it add, each
// with an `X-Forwarded-For` of its own (a random address) — while 10 real customers, each from a loopback address of
// its own (127.0.0.2 … 127.0.0.11: on Linux all of 127/8 is loopback), check out 1 unit each at a random moment of the
// minute, once. It reports how many of the 10 reached the payment page: the acceptance is at least 9.
//
// The shop runs with its defaults (PAYMENTS_PER_ADDRESS, HELD_UNITS_PER_ADDRESS, TRUSTED_PROXY_HOPS unset), so the
// result says what a plain `npm start` does with a client's `X-Forwarded-For`. `--no-forged-header`: the attacker
// sends none (what any shop that believes no forwarded header sees of it). Takes about 90 s on 2 cores, plus the build.
import { spawnSync } from "node:child_process";
import { request } from "node:http";
import { Pool } from "pg";
import { findForm, isPaymentPage, checkoutFields, multipartBody } from "../testing/no-js-shop";
import {
  freePort,
  migrate,
  ROOT,
  seedTestProducts,
  startEmbeddedDatabase,
  startEmulator,
  startShop,
  stopAll,
} from "../scripts/servers";

const FLOOD_MS = 60_000;
const CUSTOMERS = 10;
const STOCK = 20;
const SLUG = "olive-oil";
const NEEDED = 9;

const args = new Set(process.argv.slice(2));
if (!args.has("--no-build")) {
  console.log("▶ npm run build (SITE_URL=https://localhost:4443, as npm test builds)");
  const { status } = spawnSync("npm", ["run", "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SITE_URL: "https://localhost:4443" },
  });
  if (status !== 0) throw new Error(`npm run build failed (exit ${status})`);
}
const forge = !args.has("--no-forged-header");

/** One HTTP exchange from the source address `from`: what a browser at that address sends and gets. */
interface Exchange {
  status: number;
  location: string | null;
  cookie: string | null;
  html: string;
}

/**
 * A request to the shop from a given local address (the client's address as the server's socket sees it), with the
 * headers a no-JavaScript browser sends; a form post carries its page's Origin.
 */
async function send(
  url: string,
  from: string,
  {
    cookie = "",
    fields,
    headers = {},
  }: { cookie?: string; fields?: [string, string][]; headers?: Record<string, string> },
): Promise<Exchange> {
  const target = new URL(url);
  const body = fields ? await multipartBody(fields) : undefined;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: body ? "POST" : "GET",
        localAddress: from,
        headers: {
          Accept: "text/html,application/xhtml+xml",
          "Accept-Language": "en-US,en;q=0.9",
          ...(cookie ? { Cookie: cookie } : {}),
          ...(body ? { "Content-Type": body.contentType, Origin: target.origin } : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const session = (response.headers["set-cookie"] ?? [])
            .map((header) => header.split(";")[0]!)
            .find((pair) => pair.startsWith("shop_session="));
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? null,
            cookie: session ?? null,
            html: Buffer.concat(chunks).toString("utf8"),
          });
        });
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body?.body);
  });
}

/** The hidden fields of the product page's add-to-cart form and of the checkout form (fixed for a build). */
interface Forms {
  add: [string, string][];
  checkout: [string, string][];
  details: Record<string, string>;
}

/**
 * One checkout of `quantity` units in a new session: add to cart, then submit the checkout form.
 * @returns "paying" when it reached the payment page, else what stopped it.
 */
async function checkout(
  base: string,
  from: string,
  quantity: number,
  forms: Forms,
  headers: Record<string, string> = {},
): Promise<"paying" | "not_added" | "refused"> {
  const added = await send(`${base}/products/${SLUG}`, from, {
    fields: [...forms.add, ["quantity", String(quantity)]],
    headers,
  });
  if (added.status !== 200 || !added.cookie) return "not_added";
  const submitted = await send(`${base}/checkout`, from, {
    cookie: added.cookie,
    fields: checkoutFields(forms.checkout, forms.details),
    headers,
  });
  return submitted.status === 303 && isPaymentPage(submitted.location, emulatorOrigin) ? "paying" : "refused";
}

/** The forms, read once as a customer's browser reads them (a cart is needed to see the checkout form). */
async function readForms(base: string): Promise<Forms> {
  const from = "127.0.0.1";
  const page = await send(`${base}/products/${SLUG}`, from, {});
  const add = findForm(page.html, "quantity");
  if (!add) throw new Error(`/products/${SLUG} has no add-to-cart form`);
  const added = await send(`${base}/products/${SLUG}`, from, { fields: [...add.hidden, ["quantity", "1"]] });
  if (!added.cookie) throw new Error("adding to the cart set no session cookie");
  const form = findForm((await send(`${base}/checkout`, from, { cookie: added.cookie })).html, "full_name");
  if (!form) throw new Error("the checkout page has no checkout form");
  const zone = form.selects.delivery_zone?.[0];
  return {
    add: add.hidden,
    checkout: form.hidden,
    details: {
      full_name: "Aisha Ben Ali",
      email: "aisha@example.ly",
      phone: "0912345678",
      payment_gateway: form.radios.payment_gateway?.find(Boolean) ?? "",
      ...(zone
        ? { delivery_method: "delivery", delivery_zone: zone, delivery_address: "Gargaresh Street, building 12" }
        : {}),
    },
  };
}

const randomAddress = () =>
  `${1 + Math.floor(Math.random() * 223)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

const database = await startEmbeddedDatabase();
const emulator = await startEmulator({ output: "ignore" });
const emulatorOrigin = new URL(emulator.apiBase).origin;
let pool: Pool | undefined;
try {
  await migrate(database.url);
  await seedTestProducts(database.url);
  pool = new Pool({ connectionString: database.url, max: 1 });
  const port = await freePort();
  const shop = await startShop({
    port,
    timeoutMs: 120_000,
    output: "stderr",
    env: {
      DATABASE_URL: database.url,
      PAYMENT_API_BASE_URL: emulator.apiBase,
      PAYMENT_CLIENT_ID: "sandbox-demo-client-id",
      PAYMENT_CLIENT_SECRET: "sandbox-demo-client-secret",
      SESSION_SECRET: "hold-flood-bench-session-secret-32-characters",
      ORDER_LINK_SECRET: "hold-flood-bench-order-link-secret-32-characters",
      PAYMENT_WEBHOOK_SECRET: "hold-flood-bench-webhook-secret",
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "error",
    },
  });
  const base = `http://127.0.0.1:${shop.port}`;
  const forms = await readForms(base);
  // The stock, set after reading the forms: the cart of the read holds nothing (it never checked out).
  await pool.query("update products set stock = $1 where slug = $2", [STOCK, SLUG]);

  // The attacker: one loop, as fast as it can, the largest cart the page lets it add first.
  const started = Date.now();
  const attack = { checkouts: 0, paying: 0, unitsHeld: 0 };
  const attacker = (async () => {
    while (Date.now() - started < FLOOD_MS) {
      for (const quantity of [20, 10, 5, 2, 1]) {
        const headers: Record<string, string> = forge ? { "X-Forwarded-For": randomAddress() } : {};
        const result = await checkout(base, "127.0.0.1", quantity, forms, headers).catch(() => "refused" as const);
        attack.checkouts++;
        if (result === "paying") {
          attack.paying++;
          attack.unitsHeld += quantity;
          break;
        }
      }
    }
  })();

  // The customers: each once, 1 unit, at a random moment of the minute (after the attack's first seconds).
  const customers = Array.from({ length: CUSTOMERS }, async (_, i) => {
    const at = 5_000 + Math.random() * (FLOOD_MS - 10_000);
    await new Promise((resolve) => setTimeout(resolve, at));
    return checkout(base, `127.0.0.${i + 2}`, 1, forms).catch(() => "refused" as const);
  });
  const outcomes = await Promise.all(customers);
  await attacker;

  const paying = outcomes.filter((outcome) => outcome === "paying").length;
  const { rows } = await pool.query<{ held: number }>(
    `select coalesce(sum(l.quantity), 0)::int as held from order_lines l join orders o on o.id = l.order_id
      join products p on p.id = l.product_id where p.slug = $1 and o.status in ('started', 'pending')`,
    [SLUG],
  );
  console.log(
    `X-Forwarded-For ${forge ? "forged (a random address per checkout)" : "not sent"}; ` +
      `attacker: ${attack.checkouts} checkout attempts in ${FLOOD_MS / 1000} s, ${attack.paying} reached the payment ` +
      `page holding ${attack.unitsHeld} units; units held at the end: ${rows[0]!.held} of ${STOCK}`,
  );
  console.log(
    `Customers who reached the payment page: ${paying} of ${CUSTOMERS} (${outcomes.join(", ")}); ` +
      `needed ≥ ${NEEDED}: ${paying >= NEEDED ? "met" : "NOT met"}`,
  );
  if (paying < NEEDED) process.exitCode = 1;
} finally {
  await pool?.end();
  await stopAll();
  await database.stop();
}
