import { existsSync } from "node:fs";
import { chromium, defineConfig, devices } from "@playwright/test";

/**
 * Browser tests run against the production build (`next start`) and the emulator, each on its own port so a running
 * `npm run dev` is left alone. The shop is served on `localhost` and the emulator on `127.0.0.1`: two origins, like
 * a real shop and the real payment service, so the session cookie must survive a cross-site round trip.
 */
export const SHOP_PORT = 3100;
export const EMULATOR_PORT = 4110;
export const SHOP_URL = `http://localhost:${SHOP_PORT}`;
export const EMULATOR_URL = `http://127.0.0.1:${EMULATOR_PORT}`;

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
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]] : [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: SHOP_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: browserPath(),
      args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: [
    {
      command: "tsx emulator/server.ts",
      url: `${EMULATOR_URL}/__emulator/health`,
      env: { EMULATOR_PORT: String(EMULATOR_PORT), EMULATOR_QUIET: "1", EMULATOR_RATE_LIMIT: "0" },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `next start --port ${SHOP_PORT}`,
      url: SHOP_URL,
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        PAYMENT_API_BASE_URL: `${EMULATOR_URL}/pay/sandbox/api/v1`,
        PAYMENT_CLIENT_ID: "sandbox-demo-client-id",
        PAYMENT_CLIENT_SECRET: "sandbox-demo-client-secret",
        SESSION_SECRET: "e2e-session-secret-that-is-at-least-32-chars",
        SITE_URL: SHOP_URL,
        // Short, so the timeout faults finish quickly; production uses the 8 s default.
        PAYMENT_TIMEOUT_MS: "1500",
        LOG_LEVEL: "warn",
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
