// `npm test`: every check CI runs, then one closing line `N passed, N failed (M min S s)` for the whole run.
//
// 1. The static checks (typecheck, ESLint, Prettier, knip, links) and the production build, side by side: they only
//    read the tree. Each static check counts as one test, the build too.
// 2. The unit and database tests (Vitest), counted per test: on a throwaway embedded PostgreSQL always, and the
//    database suites again on the PostgreSQL of TEST_DATABASE_URL when it is set (CI: Debian's), so two major versions
//    are covered.
// 3. The browser tests (Playwright) against the build, on parallel workers, each with its own servers (e2e/stacks.ts),
//    counted per test and per project: English and Arabic directly on the embedded PostgreSQL, and the serverless
//    paths through PgBouncer.
//
// The command exits non-zero when anything failed, whatever the runners themselves answered (testing/exit-code.test.ts
// proves that each of them does too).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";

const started = Date.now();
const { TEST_DATABASE_URL, ...inherited } = process.env;
const env = { ...inherited, NEXT_TELEMETRY_DISABLED: "1", FORCE_COLOR: process.stdout.isTTY ? "1" : "0" };
const results = [];
mkdirSync("test-results", { recursive: true });

/**
 * Runs `command args`; its output is shown as it comes (`live`) or, when several run at once, all of it at the end,
 * so the lines of two checks never interleave.
 * @returns whether it exited 0, and how long it took.
 */
function run(command, args, { extraEnv = {}, live = false } = {}) {
  const title = [command, ...args].join(" ");
  if (live) console.log(`\n▶ ${title}`);
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...env, ...extraEnv }, stdio: live ? "inherit" : "pipe" });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("close", (status) => {
      if (!live) console.log(`\n▶ ${title}\n${output.trimEnd()}`);
      resolve({ ok: status === 0, seconds: (Date.now() - begun) / 1000 });
    });
  });
}

/** A check that passes or fails as a whole. */
async function check(name, command, args, options) {
  const { ok, seconds } = await run(command, args, options);
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds });
  return ok;
}

/**
 * A test runner whose JSON report gives its counts. A runner that failed without reporting a failing test (a crash,
 * a configuration error) still counts as one failure, and so does a report with no test at all.
 */
async function suite(name, command, args, reportFile, count, options) {
  rmSync(reportFile, { force: true });
  const { ok, seconds } = await run(command, args, options);
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, "utf8")) : undefined;
  const groups = report ? count(report) : [{ name, passed: 0, failed: 0 }];
  for (const group of groups) {
    if (group.passed + group.failed === 0) group.failed = 1;
    results.push({ ...group, seconds });
  }
  if (!ok && groups.every((group) => group.failed === 0)) results.push({ name, passed: 0, failed: 1, seconds });
}

// 1. Static checks and the build. The build has the browser tests' environment, secrets included, so their secret scan
// covers the build output.
const shopEnv = JSON.parse(readFileSync("e2e/shop-env.json", "utf8"));
const [, , , , , , built] = await Promise.all([
  check("typecheck", "npx", ["tsc", "--noEmit"]),
  check("emulator typecheck", "npx", ["tsc", "--noEmit", "-p", "emulator"]),
  check("lint (ESLint)", "npx", ["eslint", "."]),
  check("format (Prettier)", "npx", ["prettier", "--check", "."]),
  check("unused code (knip)", "npx", ["knip"]),
  // Every Markdown link and cited file or heading exists: a clone has nothing else to follow.
  check("links", "node", ["testing/check-links.mjs"]),
  check("build", "npm", ["run", "build"], { extraEnv: shopEnv }),
]);

// 2. Unit and database tests.
const vitestCounts = (name) => (r) => [{ name, passed: r.numPassedTests, failed: r.numFailedTests }];
const vitest = (outputFile, files = []) => [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${outputFile}`,
  ...files,
];
await suite("unit", "npx", vitest("test-results/vitest.json"), "test-results/vitest.json", vitestCounts("unit"), {
  live: true,
});
if (TEST_DATABASE_URL) {
  // The suites that use a database (testing/db.ts), on a real PostgreSQL of another major version.
  const databaseSuites = ["lib", "app", "scripts"]
    .flatMap((dir) => readdirSync(dir, { recursive: true }).map((file) => `${dir}/${file}`))
    .filter((file) => file.endsWith(".test.ts") && /testing\/db"/.test(readFileSync(file, "utf8")));
  const report = "test-results/vitest-pg.json";
  await suite(
    "unit (TEST_DATABASE_URL)",
    "npx",
    vitest(report, databaseSuites),
    report,
    vitestCounts("unit (TEST_DATABASE_URL)"),
    {
      extraEnv: { TEST_DATABASE_URL },
      live: true,
    },
  );
}

// 3. Browser tests, counted per project.
if (built) {
  const names = { en: "browser", ar: "browser (Arabic)", pooler: "browser via PgBouncer" };
  const playwrightCounts = (report) => {
    const groups = new Map();
    const group = (name) => groups.get(name) ?? groups.set(name, { name, passed: 0, failed: 0 }).get(name);
    const visit = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests) {
          const counts = group(names[test.projectName] ?? test.projectName);
          if (test.status === "expected" || test.status === "flaky") counts.passed++;
          else if (test.status === "unexpected") counts.failed++;
        }
      for (const child of suite.suites ?? []) visit(child);
    };
    for (const suite of report.suites) visit(suite);
    // An error outside any test (a global setup that failed, a worker that crashed) fails the run too.
    if (report.errors?.length) group("browser: errors outside tests").failed += report.errors.length;
    return [...groups.values()];
  };
  await suite("browser", "npx", ["playwright", "test"], "test-results/playwright.json", playwrightCounts, {
    live: true,
  });
} else {
  results.push({ name: "browser (Playwright): not run, the build failed", passed: 0, failed: 1, seconds: 0 });
}

const elapsed = Math.round((Date.now() - started) / 1000);
const clock = `${Math.floor(elapsed / 60)} min ${elapsed % 60} s`;
console.log("\nSummary");
for (const r of results)
  console.log(
    `  ${r.failed ? "✗" : "✓"} ${r.name.padEnd(26)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${r.seconds.toFixed(1)}s`,
  );
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed (${clock})`);
process.exit(failed === 0 ? 0 : 1);
