import { existsSync } from "node:fs";
import { chromium, defineConfig, devices } from "@playwright/test";
import { POOLER_WORKERS } from "./e2e/stacks";

/**
 * Browser tests run against the production build (`next start`) and the emulator of the payment service. Each worker
 * has its own servers and database (a "stack", e2e/stacks.ts, started by e2e/global-setup.ts), so the workers run in
 * parallel without sharing state; `baseURL` is the worker's own shop (e2e/support.ts). E2E_WORKERS sets how many
 * (default 2, at most 4). The `pooler` project runs the serverless paths with the shop behind PgBouncer in
 * transaction mode.
 */

/**
 * CHROMIUM_PATH if set, else Playwright's own browser if installed, else Debian's headless shell, else Debian's
 * chromium. The headless shell is the old headless mode as a program of its own, which Playwright's own headless runs
 * use too: the full browser in its new headless mode took two and a half times its CPU over this suite (537 against
 * 212 CPU-seconds), and the browser tests were 8.4 minutes instead of 5.6.
 */
function browserPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(chromium.executablePath())) return undefined;
  return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path));
}

const english = { ...devices["Desktop Chrome"], locale: "en-US" };

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // testing/test.mjs reads the JSON report to count the run.
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "test-results/playwright.json" }]],
  use: {
    // A trace of every test costs a fifth of the run's CPU; E2E_TRACE=1 keeps one for each failing test.
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
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
  // The Arabic and the PgBouncer projects come first, each on one worker at a time, beside each other: the English
  // tests then take both workers to the end. In the other order each project's tests were shared by both workers, and
  // each switch of project starts a worker and its browser anew (six a run instead of four), and the pooler needed a
  // stack for each worker (one now, e2e/stacks.ts).
  projects: [
    // The paths a merchant on a serverless host takes, with the shop behind PgBouncer in transaction mode (the pooler
    // Neon and Supabase run): a payment confirmed by the webhook, expiry, a duplicated delivery, the sign-in queue and
    // the one-time sign-in link, two instances racing for one checkout and for the last units. The tests tagged
    // `@pooler` run here only: a transaction pooler allows a subset of what a direct connection does (no session
    // state across transactions, locks only inside one), the shop's code is the same for both, and the rest of the
    // suite, these paths' other cases included, reaches its database directly. The other tests exercise nothing a
    // pooler changes, nor would the pages of a checkout in a browser, whose payment and webhook e2e/webhooks.spec.ts's
    // first test makes by plain HTTP.
    {
      name: "pooler",
      use: english,
      metadata: { flavor: "pooler" },
      testMatch: ["webhooks.spec.ts", "admin.spec.ts", "instances.spec.ts"],
      grep: /@pooler/,
      workers: POOLER_WORKERS,
    },
    // The main checkout in Arabic (right-to-left): the browser asks for ar-LY, as Libyan shoppers' do; and the
    // merchant's catalogue: the back office's product pages in Arabic, and the shop selling what they add. The tests
    // tagged `@arabic`, which prove the words and the direction: the paid and the cancelled order, the checkout's
    // messages, the language switch. They run here only, as the `@pooler` tests run through PgBouncer only: their
    // code is the same in either language, and the English project's other tests go down the same paths in English
    // (a decline, the gateway chosen at the checkout, no JavaScript, the webhook's confirmation, the purchase through
    // nginx; the product form in e2e/a11y.spec.ts, whose axe checks every page in both languages).
    {
      name: "ar",
      use: { ...devices["Desktop Chrome"], locale: "ar-LY" },
      testMatch: ["checkout.spec.ts", "products.spec.ts"],
      grep: /@arabic/,
      workers: 1,
    },
    { name: "en", use: english, grepInvert: /@pooler|@arabic/ },
  ],
  globalSetup: "./e2e/global-setup.ts",
});
