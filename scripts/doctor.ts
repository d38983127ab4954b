// `npm run doctor`: checks the environment and the credentials against the configured payment service, and says
// in plain words what is wrong and how to fix it. Makes one token request (no payment is created).
// Run with `-- --production` to check as `next start` would (every variable required), from the environment alone:
// load production's variables first (`set -a; . /etc/shop/shop.env; set +a`). In development it reads
// .env.development.local too. Either way its first line names what it read.
import { Pool } from "pg";
import { looksLikeTransactionPooler, pendingMigrations } from "../lib/db/migrate";
import { createMailTransport } from "../lib/email/settings";
import {
  DEVELOPMENT_WEBHOOK_SECRET,
  EnvError,
  isLoopbackHost,
  parseEnv,
  withoutPassword,
  type Env,
  type ReadableEnv,
} from "../lib/env";
import { newCallContext, PaymentError, requestAccessToken } from "../lib/payments";
import { checkSmppBind } from "../lib/sms/smpp";
import { DEVELOPMENT_ENV_FILE, loadDevelopmentEnvFiles } from "./env-files";

const production = process.argv.includes("--production") || process.env.NODE_ENV === "production";
const read = loadDevelopmentEnvFiles(production);
/** Where a variable is fixed: the file this run read, else the environment it came from. */
const where = production
  ? "production's environment (your env file, e.g. /etc/shop/shop.env, or Vercel's settings)"
  : (read[0] ?? DEVELOPMENT_ENV_FILE);

const ok = (text: string) => console.log(`  ✓ ${text}`);
const bad = (text: string, fix: string) => {
  console.log(`  ✗ ${text}\n      → ${fix}`);
  process.exitCode = 1;
};
const note = (text: string) => console.log(`  ! ${text}`);

console.log(
  `Checking the ${production ? "production" : "development"} configuration from ${[...read, "this process's environment"].join(" and ")}${production ? " (no env file is read)" : ""}…\n`,
);

// One list: every problem of the environment at once, then every check whose variables could be read, so that a
// merchant fixes everything in one round instead of meeting the next problem only after fixing the last.
let env: ReadableEnv & Partial<Pick<Env, "usingEmulatorDefaults" | "usingEmbeddedDatabase">>;
try {
  const parsed = parseEnv(process.env, production ? "production" : "development");
  ok(`environment variables are well-formed${parsed.usingEmulatorDefaults ? " (using the emulator defaults)" : ""}`);
  // The server starts with these, but a shop going live must not: the doctor fails on them.
  for (const warning of parsed.warnings) bad(warning, `fix it in ${where} before going live (see .env.example)`);
  env = parsed;
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  for (const problem of error.problems)
    bad(problem, `fix it in ${where} (see .env.example), then run \`npm run doctor\` again`);
  for (const warning of error.warnings) bad(warning, `fix it in ${where} before going live (see .env.example)`);
  env = error.readable;
}

const base = env.PAYMENT_API_BASE_URL ? new URL(env.PAYMENT_API_BASE_URL) : undefined;
const mode = base && /\/sandbox\//.test(`${base.pathname}/`) ? "sandbox" : "production";
if (base) {
  ok(`payment service: ${env.PAYMENT_API_BASE_URL} (${mode})`);
  if (production && mode === "sandbox")
    note("the shop is in production mode but talks to the SANDBOX: no real money will move.");
}
if (env.PAYMENT_WEBHOOK_SECRET && env.SITE_URL) {
  ok(`webhook secret set: set the merchant dashboard's webhook URL to ${env.SITE_URL}/api/payments/webhook`);
  if (env.PAYMENT_WEBHOOK_SECRET === DEVELOPMENT_WEBHOOK_SECRET)
    note(
      "PAYMENT_WEBHOOK_SECRET is the development value the emulator shares: use the dashboard's secret against a real service.",
    );
}

// The shop's own server speaks plain http, so an https SITE_URL off Vercel means something in front terminates TLS:
// a proxy. Trusting none, the shop counts every customer as that proxy's one address (lib/client-address.ts). The
// doctor sees only the environment; the running shop also logs once when a request looks proxied.
if (!process.env.VERCEL && env.SITE_URL?.startsWith("https:") && (env.TRUSTED_PROXY_HOPS ?? 0) === 0)
  note(
    "SITE_URL is https, which the shop's own server does not speak, so a proxy stands in front; but TRUSTED_PROXY_HOPS is 0, so every customer counts as that proxy's address for the sign-in limits and the checkout's budgets. Set TRUSTED_PROXY_HOPS to the number of proxies in front of the shop (nginx: 1; see docs/deploying.md).",
  );

if (env.PAYMENT_API_BASE_URL && env.PAYMENT_CLIENT_ID && env.PAYMENT_CLIENT_SECRET) {
  try {
    const token = await requestAccessToken(
      {
        baseUrl: env.PAYMENT_API_BASE_URL,
        clientId: env.PAYMENT_CLIENT_ID,
        clientSecret: env.PAYMENT_CLIENT_SECRET,
        timeoutMs: env.PAYMENT_TIMEOUT_MS,
      },
      newCallContext(),
    );
    ok(
      `credentials accepted: the service issued an access token valid ${Math.round((token.expiresAt - Date.now()) / 1000)} s`,
    );
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    explain(error, base!);
  }
} else {
  note("the credentials were not tried: fix the PAYMENT_* variables above first");
}

if (env.DATABASE_URL) await checkDatabase(env.DATABASE_URL, Boolean(env.usingEmbeddedDatabase));
else note("the database was not tried: fix DATABASE_URL above first");

if (env.SMTP_URL) await checkEmail(env.SMTP_URL);
else
  note(
    production
      ? "e-mail is off: SMTP_URL is not set, so customers get no receipt and nobody hears of paid orders (see .env.example)"
      : "e-mail: SMTP_URL is not set; `npm run dev` points it at its mail catcher, elsewhere e-mail is off",
  );

if (env.SMPP_URL) await checkSms(env.SMPP_URL);
else note("text messages are off: SMPP_URL is not set; `npm run dev` points it at its SMS centre (see .env.example)");

/** Binds to the SMS centre with the shop's account, as the shop's sender will (no message is sent). */
async function checkSms(smppUrl: string) {
  const { SMPP_SYSTEM_ID: systemId, SMS_SENDER_NAME: senderName, SMS_DAILY_LIMIT: dailyLimit } = env;
  if (!systemId || !senderName) return note("the SMS centre was not tried: fix the SMPP and SMS variables above first");
  try {
    await checkSmppBind({ smppUrl, systemId, password: env.SMPP_PASSWORD ?? "" });
    ok(
      `text messages are on: the SMS centre ${smppUrl} took the bind of ${systemId}; they come from ${senderName}, at most ${dailyLimit ?? "?"} parts a Tripoli day`,
    );
  } catch (error) {
    bad(
      `the SMS centre of SMPP_URL did not take the bind (${error instanceof Error ? error.message : String(error)})`,
      "check SMPP_URL's host and port (ssmpp:// for TLS), SMPP_SYSTEM_ID and SMPP_PASSWORD against your provider's account",
    );
  }
}

/** Connects to the SMTP server and logs in, as the shop's sender will (no e-mail is sent). */
async function checkEmail(SMTP_URL: string) {
  const url = new URL(SMTP_URL);
  const server = `${url.hostname}:${url.port || (url.protocol === "smtps:" ? 465 : 587)}`;
  const transport = createMailTransport({ smtpUrl: SMTP_URL });
  try {
    await transport.verify();
    ok(
      `e-mail is on: the SMTP server ${server} accepted ${url.username ? "the login" : "a connection"}; receipts come from ${env.MAIL_FROM ?? "?"}, notices go to ${env.MERCHANT_EMAIL ?? "nobody"} (${env.MERCHANT_LOCALE ?? "en"})`,
    );
  } catch (error) {
    bad(
      `the SMTP server ${server} of SMTP_URL did not take a connection and login (${error instanceof Error ? error.message : String(error)})`,
      "check SMTP_URL's host, port, user and password (URL-encoded) against your provider's SMTP settings",
    );
  } finally {
    transport.close();
  }
}

async function checkDatabase(DATABASE_URL: string, usingEmbeddedDatabase: boolean) {
  const shown = withoutPassword(DATABASE_URL);
  const pool = new Pool({ connectionString: DATABASE_URL, max: 1, connectionTimeoutMillis: 5_000 });
  pool.on("error", () => {});
  try {
    const pending = await pendingMigrations(pool);
    if (pending.length > 0)
      bad(`the database ${shown} lacks migrations ${pending.join(", ")}`, "run `npm run db:migrate`");
    else ok(`database ${shown}${usingEmbeddedDatabase ? " (embedded)" : ""} is reachable and has every migration`);
  } catch (error) {
    bad(
      `cannot reach the database ${shown} (${error instanceof Error ? error.message : String(error)})`,
      usingEmbeddedDatabase
        ? "start `npm run dev` (it starts the embedded database), or set DATABASE_URL"
        : "check DATABASE_URL, the host's firewall and the password",
    );
  } finally {
    await pool.end();
  }
  const unpooled = process.env.DATABASE_URL_UNPOOLED;
  if (unpooled) {
    if (looksLikeTransactionPooler(unpooled))
      bad(
        `DATABASE_URL_UNPOOLED ${withoutPassword(unpooled)} names a pooler`,
        "set it to the direct connection string (Neon: the host without -pooler; Supabase: port 5432)",
      );
    else ok(`migrations use the direct connection DATABASE_URL_UNPOOLED ${withoutPassword(unpooled)}`);
  } else if (looksLikeTransactionPooler(DATABASE_URL)) {
    bad(
      `DATABASE_URL is a transaction pooler, which \`npm run db:migrate\` cannot use (its lock needs a session)`,
      "set DATABASE_URL_UNPOOLED to the direct connection string (Vercel's Neon integration sets it for you)",
    );
  }
}

function explain(error: PaymentError, base: URL) {
  const said = error.messages.join(" ").toLowerCase();
  switch (error.kind) {
    case "invalid_credentials":
      // Messages are localised; they only refine the hint, the status decides that the credentials were refused.
      if (said.includes("credentials")) {
        bad(
          `the service refused the key pair for this environment (${error.messages.join(" ")})`,
          `keys are tied to a mode: use ${mode} keys with a ${mode} base URL, or switch PAYMENT_API_BASE_URL (sandbox: …/pay/sandbox/api/v1, production: …/pay/api/v1)`,
        );
      } else if (said.includes("client")) {
        bad(
          `the client ID was refused (${error.messages.join(" ")})`,
          "copy PAYMENT_CLIENT_ID again from the merchant dashboard",
        );
      } else if (said.includes("secret")) {
        bad(
          `the client secret was refused (${error.messages.join(" ")})`,
          "copy PAYMENT_CLIENT_SECRET again from the merchant dashboard",
        );
      } else {
        bad(
          `the service refused the credentials (HTTP ${error.status}: ${error.messages.join(" ")})`,
          "check PAYMENT_CLIENT_ID, PAYMENT_CLIENT_SECRET and the base URL's mode",
        );
      }
      return;
    case "unavailable":
    case "timeout":
      bad(
        `cannot reach ${base.origin} (${error.kind}${error.status ? `, HTTP ${error.status}` : ""})`,
        env.usingEmulatorDefaults || isLoopbackHost(base.hostname)
          ? "start the emulator with `npm run emulator` (or `npm run dev`, which starts it too)"
          : "check the host name in PAYMENT_API_BASE_URL and this machine's network",
      );
      return;
    case "rate_limited":
      bad(
        "the service is rate limiting this IP (60 requests a minute)",
        `wait ${error.retryAfterSeconds ?? 60} s and run the doctor again`,
      );
      return;
    case "bad_response":
      bad(
        `the answer from ${env.PAYMENT_API_BASE_URL}/authentication/token is not the service's JSON (HTTP ${error.status})`,
        "check that PAYMENT_API_BASE_URL is the API base ending in /api/v1, not the dashboard or the payment page address",
      );
      return;
    default:
      bad(`unexpected answer: ${error.message}`, "see the server log for the request id " + error.requestId);
  }
}

console.log(process.exitCode ? "\nSome checks failed." : "\nAll checks passed.");
