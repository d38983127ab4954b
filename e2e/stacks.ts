import { readFileSync } from "node:fs";

/**
 * The browser tests' servers, one **stack** per Playwright worker and flavor, so that tests running at the same time
 * never share state: each stack is a shop (the production build's standalone server, as `npm start` runs it), an emulator of the payment service
 * (its faults, clock and payments are that stack's alone), a mail catcher and a database of its own. All stacks'
 * databases live on one embedded PostgreSQL server, and the `pooler` stacks reach theirs through one PgBouncer in
 * transaction mode, as a shop on a serverless host reaches Neon or Supabase.
 *
 * Ports are computed, not discovered: e2e/global-setup.ts finds a free block of ports for the run (so two runs on one
 * machine do not collide), passes its first port to the workers in E2E_PORT_BASE, and starts the stacks; every worker
 * finds its own from that, its project (the flavor) and its `parallelIndex` (the slot; {@link stackOfWorker}).
 */

/**
 * The shop's owner in the back office, as a merchant creates theirs: by `npm run admin -- create` (scripts/admin.ts),
 * with the password hash a real account has. e2e/global-setup.ts creates them once, in the template every stack's
 * database is copied from; e2e/admin.spec.ts signs in with it. Tests that lock an account or change a password make
 * an admin of their own.
 */
export const OWNER = { email: "owner@medina.example", password: "a-strong-e2e-password" } as const;

/**
 * The shop's configuration in these tests, and the build's (`npm test` builds with it, so the secret scan covers the
 * build). Every stack's shop sees all its tests' checkouts come from one address, so PAYMENTS_PER_ADDRESS and
 * HELD_UNITS_PER_ADDRESS are large there; e2e/instances.spec.ts tests the budget with the default. Its shop trusts one proxy (TRUSTED_PROXY_HOPS 1), as
 * behind nginx, so that a test can stand for a client at an address of its own by writing the X-Forwarded-For such a
 * proxy would send (a browser cannot choose its source address); e2e/instances.spec.ts runs shops that trust none,
 * as a plain `npm start` does, and e2e/proxy.spec.ts the real nginx.
 */
export const baseShopEnv: Readonly<
  Record<string, string> & {
    SITE_URL: string;
    MERCHANT_EMAIL: string;
    PAYMENT_CLIENT_SECRET: string;
    SESSION_SECRET: string;
    ORDER_LINK_SECRET: string;
    PAYMENT_WEBHOOK_SECRET: string;
    CRON_SECRET: string;
  }
> = JSON.parse(readFileSync(new URL("./shop-env.json", import.meta.url), "utf8"));

/**
 * The public origin the build is made for: the https address of the shop behind nginx (e2e/proxy.spec.ts). It is
 * the build's only use of SITE_URL (next.config.mjs allows server actions from it); every stack's shop runs with its
 * own SITE_URL, and a shop reached directly needs no allowed origin.
 */
export const BUILD_SITE_URL = baseShopEnv.SITE_URL;

/** Secrets the shop runs with in these tests; e2e/security.spec.ts checks that none of them ever leaves the server. */
export const E2E_SECRETS = [
  baseShopEnv.PAYMENT_CLIENT_SECRET,
  baseShopEnv.SESSION_SECRET,
  baseShopEnv.ORDER_LINK_SECRET,
  baseShopEnv.PAYMENT_WEBHOOK_SECRET,
  baseShopEnv.CRON_SECRET,
] as const;

/** How a stack's shop reaches its database: directly, or through PgBouncer in transaction mode. */
const FLAVORS = ["direct", "pooler"] as const;
type Flavor = (typeof FLAVORS)[number];

/** Each stack has a block of this many ports; slots beyond {@link MAX_SLOTS} are refused. */
const PORTS_PER_STACK = 20;
const MAX_SLOTS = 4;
/** The ports of one run: the database and the pooler, then every stack's block. */
export const PORTS_PER_RUN = 2 + PORTS_PER_STACK * MAX_SLOTS * FLAVORS.length;

/** The run's first port (E2E_PORT_BASE, set by e2e/global-setup.ts). */
function portBase(): number {
  const base = Number(process.env.E2E_PORT_BASE);
  if (!Number.isInteger(base) || base <= 0)
    throw new Error("E2E_PORT_BASE is not set: the browser tests' servers are started by e2e/global-setup.ts");
  return base;
}

/** The run's embedded PostgreSQL, and the PgBouncer in front of it. */
export const databasePort = () => portBase();
export const poolerPort = () => portBase() + 1;
export const databaseServerUrl = () => `postgresql://postgres:postgres@127.0.0.1:${databasePort()}/postgres`;

export interface Stack {
  /** e.g. `direct-0`: the flavor and the slot (the worker's parallelIndex). */
  name: string;
  flavor: Flavor;
  slot: number;
  /** `http://localhost:<port>`: the shop, on another origin than the emulator, as a real shop and service are. */
  shopUrl: string;
  shopPort: number;
  /** `http://127.0.0.1:<port>`: the stack's emulator; its control API is under `/__emulator/`. */
  emulatorUrl: string;
  emulatorPort: number;
  /** The mail catcher: the shop's SMTP server, and its inbox with MailDev's REST API. */
  smtpPort: number;
  mailInboxUrl: string;
  /** The SMS centre: the shop's SMPP server, and its inbox (`GET /api/sms`). */
  smppPort: number;
  smsInboxUrl: string;
  /** The name of the stack's database on the run's PostgreSQL server. */
  database: string;
  /** The stack's database, reached directly: for migrations, for the tests' own reads, and for outages. */
  directDatabaseUrl: string;
  /** The database as the shop reaches it (through PgBouncer for the `pooler` flavor). */
  databaseUrl: string;
  /** The shop's stdout and stderr. */
  shopLog: string;
  /** The shop's environment. */
  env: Record<string, string>;
  /** Ports no stack uses, for a test that starts more servers of its own (another instance, a refused start). */
  sparePorts: readonly number[];
}

/** The stack of a flavor and a slot. */
function stackFor(flavor: Flavor, slot: number): Stack {
  if (!Number.isInteger(slot) || slot < 0 || slot >= MAX_SLOTS)
    throw new Error(`The browser tests run at most ${MAX_SLOTS} workers (E2E_WORKERS); slot ${slot} has no stack.`);
  const name = `${flavor}-${slot}`;
  const base = portBase() + 2 + PORTS_PER_STACK * (FLAVORS.indexOf(flavor) * MAX_SLOTS + slot);
  const [shopPort, emulatorPort, smtpPort, inboxPort, smppPort, smsInboxPort] = [0, 1, 2, 3, 4, 5].map(
    (offset) => base + offset,
  ) as [number, number, number, number, number, number];
  const database = `e2e_${flavor}_${slot}`;
  const directDatabaseUrl = `postgresql://postgres:postgres@127.0.0.1:${databasePort()}/${database}`;
  const databaseUrl =
    flavor === "pooler" ? `postgresql://postgres:postgres@127.0.0.1:${poolerPort()}/${database}` : directDatabaseUrl;
  const shopUrl = `http://localhost:${shopPort}`;
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  return {
    name,
    flavor,
    slot,
    shopUrl,
    shopPort,
    emulatorUrl,
    emulatorPort,
    smtpPort,
    database,
    mailInboxUrl: `http://127.0.0.1:${inboxPort}`,
    smppPort,
    smsInboxUrl: `http://127.0.0.1:${smsInboxPort}`,
    directDatabaseUrl,
    databaseUrl,
    shopLog: `.next/e2e-shop-${name}.log`,
    env: {
      ...baseShopEnv,
      SITE_URL: shopUrl,
      PAYMENT_API_BASE_URL: `${emulatorUrl}/pay/sandbox/api/v1`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SMPP_URL: `smpp://127.0.0.1:${smppPort}`,
      SMPP_SYSTEM_ID: "medina-e2e",
      SMS_SENDER_NAME: "Medina",
      DATABASE_URL: databaseUrl,
      // Migrations need a session of their own, which a transaction pooler does not give: deploys use the direct URL.
      ...(flavor === "pooler" ? { DATABASE_URL_UNPOOLED: directDatabaseUrl } : {}),
    },
    sparePorts: Array.from({ length: PORTS_PER_STACK - 6 }, (_, i) => base + 6 + i),
  };
}

/**
 * How many workers run the `pooler` project at once (its `workers` in playwright.config.ts): one, beside the Arabic
 * project's, so the `pooler` flavor has one stack, slot 0, whichever worker runs it.
 */
export const POOLER_WORKERS = 1;

/** The stacks e2e/global-setup.ts starts for a run of `workers` workers: a `direct` one for each, one `pooler`. */
export function stacksOfRun(workers: number): Stack[] {
  return [
    ...Array.from({ length: workers }, (_, slot) => stackFor("direct", slot)),
    ...Array.from({ length: POOLER_WORKERS }, (_, slot) => stackFor("pooler", slot)),
  ];
}

/** The stack of a worker: its project's flavor (`metadata.flavor`, `direct` when unset) and its `parallelIndex`. */
export function stackOfWorker(project: { metadata?: Record<string, unknown> }, parallelIndex: number): Stack {
  if (project.metadata?.flavor !== "pooler") return stackFor("direct", parallelIndex);
  // The only pooler worker may run in any slot: it takes the first pooler stack.
  return stackFor("pooler", 0);
}
