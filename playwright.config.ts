import { existsSync, readFileSync } from "node:fs";
import { chromium, defineConfig, devices } from "@playwright/test";
// The shop's environment in these tests. `npm test` builds with it too, so the secret scan would see any secret
// that a build inlined. PAYMENT_TIMEOUT_MS is short so the timeout faults finish quickly (production: 8 s).
const fileEnv: Record<string, string> & {
  SITE_URL: string;
  PAYMENT_API_BASE_URL: string;
  PAYMENT_CLIENT_SECRET: string;
  SESSION_SECRET: string;
  PAYMENT_WEBHOOK_SECRET: string;
  CRON_SECRET: string;
  SMTP_URL: string;
  MERCHANT_EMAIL: string;
} = JSON.parse(readFileSync(new URL("./e2e/shop-env.json", import.meta.url), "utf8"));

/**
 * The shop's database: the PostgreSQL of TEST_DATABASE_URL when set, else a throwaway embedded PostgreSQL started for
 * the run (e2e/global-setup.ts). With E2E_POOLER=1 the shop reaches the embedded one through PgBouncer in transaction
 * mode, as on a serverless host; migrations, which need a session, use the direct URL (DATABASE_URL_UNPOOLED), as
 * deploys do.
 */
export const EMBEDDED_DATABASE_PORT = 4120;
export const POOLER_PORT = 4121;
export const throughPooler = process.env.E2E_POOLER === "1";
export const embedded = !process.env.TEST_DATABASE_URL || throughPooler;
export const DIRECT_DATABASE_URL = embedded
  ? `postgresql://postgres:postgres@127.0.0.1:${EMBEDDED_DATABASE_PORT}/postgres`
  : process.env.TEST_DATABASE_URL!;
export const DATABASE_URL = throughPooler
  ? `postgresql://postgres:postgres@127.0.0.1:${POOLER_PORT}/postgres`
  : DIRECT_DATABASE_URL;
export const shopEnv = {
  ...fileEnv,
  DATABASE_URL,
  ...(throughPooler ? { DATABASE_URL_UNPOOLED: DIRECT_DATABASE_URL } : {}),
};

/**
 * Browser tests run against the production build (`next start`) and the emulator, each on its own port so a running
 * `npm run dev` is left alone. The shop is served on `localhost` and the emulator on `127.0.0.1`: two origins, like
 * a real shop and the real payment service, so the session cookie must survive a cross-site round trip.
 */
export const SHOP_URL = shopEnv.SITE_URL;
export const EMULATOR_URL = new URL(shopEnv.PAYMENT_API_BASE_URL).origin;
export const SHOP_PORT = Number(new URL(SHOP_URL).port);
export const EMULATOR_PORT = Number(new URL(EMULATOR_URL).port);

/** MailDev, where the shop's SMTP_URL points (e2e/global-setup.ts): its inbox and REST API are on the next port. */
export const MAIL_SMTP_PORT = Number(new URL(shopEnv.SMTP_URL).port);
export const MAIL_INBOX_URL = `http://127.0.0.1:${MAIL_SMTP_PORT + 1}`;

/** Secrets the shop runs with in these tests; e2e/security.spec.ts checks that none of them ever leaves the server. */
export const E2E_SECRETS = [
  shopEnv.PAYMENT_CLIENT_SECRET,
  shopEnv.SESSION_SECRET,
  shopEnv.PAYMENT_WEBHOOK_SECRET,
  shopEnv.CRON_SECRET,
] as const;
/** The shop's stdout and stderr during the browser tests, scanned for secrets. */
export const SHOP_LOG = ".next/e2e-shop.log";

/** CHROMIUM_PATH if set, else Playwright's own browser if installed, else Debian's chromium. */
function browserPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(chromium.executablePath())) return undefined;
  return "/usr/bin/chromium";
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  // The emulator's fault queue is shared by every test: one worker keeps each test's faults its own.
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // testing/test.mjs reads the JSON report to count the run.
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "test-results/playwright.json" }]],
  use: {
    baseURL: SHOP_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: browserPath(),
      args: [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "en", use: { ...devices["Desktop Chrome"], locale: "en-US" } },
    // The main checkout again, in Arabic (right-to-left): the browser asks for ar-LY, as Libyan shoppers' do.
    { name: "ar", use: { ...devices["Desktop Chrome"], locale: "ar-LY" }, testMatch: "checkout.spec.ts" },
  ],
  // The database, the emulator and `next start`, started by scripts/servers.ts as `npm run dev` and the bench start
  // theirs, and stopped after the run.
  globalSetup: "./e2e/global-setup.ts",
});
