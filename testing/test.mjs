// `npm test` and `npm run check` (`--check`): every check CI runs, then one closing line `N passed, N failed (M min
// S s)` for the whole run, and exit code 1 when anything failed (testing/summary.mjs).
//
// 1. Side by side, as they only read the tree: the production build and, while it compiles, the project's typecheck
//    (tsc, of the whole project as tsconfig.json has it, the emulator included); ESLint, Prettier, knip, the link check
//    and the import rules (dependency-cruiser). Each counts as one test.
// 2. The database tests and those that start programs (Vitest), counted per test: the database suites on a throwaway
//    embedded PostgreSQL, then again on the PostgreSQL of TEST_DATABASE_URL when it is set (CI: Debian's), so two
//    major versions are covered. Vitest's unit project runs in stage 1, beside the checks, as it does in `--check`.
// 3. The browser tests (Playwright) against the build, on parallel workers each with its own servers (e2e/stacks.ts),
//    counted per project: English and Arabic on the embedded PostgreSQL, and the serverless paths through PgBouncer.
//
// The stages follow each other because each keeps both cores of a 2-core machine busy: run side by side, they took
// as long in all and a test that starts programs of its own timed out. Vitest's `unit` project (no database, no
// programs of their own) is light enough to share stage 1's cores. `--check`, before every commit: stage 1 without the
// build (the typecheck is then `next typegen`, for the routes' types, and `tsc`).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tally, verdict } from "./summary.mjs";

const started = Date.now();
const quick = process.argv.includes("--check");
const { TEST_DATABASE_URL, ...inherited } = process.env;
const env = { ...inherited, NEXT_TELEMETRY_DISABLED: "1" };
const rows = [];
mkdirSync("test-results", { recursive: true });

/**
 * Runs `command args`. Its output is shown as it comes (`live`) or, when several run at once, whole when it ends, so
 * the lines of two checks never interleave.
 * @returns whether it exited 0, how many seconds it took, and its output (when not `live`).
 */
function run(command, args, { extraEnv = {}, live = false, watch } = {}) {
  const title = [command, ...args].join(" ");
  if (live) console.log(`\n▶ ${title}`);
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...env, ...extraEnv }, stdio: live ? "inherit" : "pipe" });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      watch?.(output);
    });
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("close", (status) => {
      if (!live) console.log(`\n▶ ${title}\n${output.trimEnd()}`);
      resolve({ ok: status === 0, seconds: (Date.now() - begun) / 1000, output });
    });
  });
}

/** A check that passes or fails as a whole. @returns whether it passed. */
async function check(name, command, args, options) {
  const { ok, seconds } = await run(command, args, options);
  rows.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds });
  return ok;
}

/** A test runner, counted from its JSON report (`count(report)` → `[{ name, passed, failed }]`). */
async function suite(name, command, args, reportFile, count, options) {
  rmSync(reportFile, { force: true });
  const { ok, seconds } = await run(command, args, options);
  const groups = existsSync(reportFile) ? count(JSON.parse(readFileSync(reportFile, "utf8"))) : undefined;
  for (const row of tally(name, ok, groups)) rows.push({ ...row, seconds });
}

// 1. The build has the browser tests' environment, secrets included, so their secret scan (e2e/security.spec.ts)
// covers the whole build output, the standalone server's folder included.
const shopEnv = JSON.parse(readFileSync("e2e/shop-env.json", "utf8"));
const vitestCounts = (name) => (report) => [{ name, passed: report.numPassedTests, failed: report.numFailedTests }];
const vitest = (report, args) => [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${report}`,
  ...args,
];
/**
 * The production build, and beside it the project's typecheck. `next build` would typecheck once it has compiled,
 * single-threaded, with the TypeScript 6 compiler whose JavaScript API Next.js loads: the second core would idle for
 * most of a minute, at three times the CPU of TypeScript 7's native tsc (`npx tsc`: package.json's
 * `@typescript/native`). So this build skips that step (TYPECHECK_BESIDE_BUILD, next.config.mjs) and tsc checks the
 * same project while the build compiles. tsc reads the route types Next.js generates: `next typegen` writes them (and
 * next-env.d.ts) first; the build writes them again, the same, just before it says "Creating an optimized production
 * build", so tsc starts only then (or when the build has ended) and never reads a file being rewritten.
 * @returns whether the build passed.
 */
async function build() {
  await run("npx", ["next", "typegen"]);
  let compiling;
  const typesWritten = new Promise((resolve) => (compiling = resolve));
  const building = run("npm", ["run", "build"], {
    extraEnv: { ...shopEnv, TYPECHECK_BESIDE_BUILD: "1" },
    watch: (output) => output.includes("Creating an optimized production build") && compiling(),
  });
  const [{ ok, seconds }] = await Promise.all([
    building.finally(compiling),
    typesWritten.then(() => check("typecheck", "npx", ["tsc", "--noEmit"])),
  ]);
  rows.push({ name: "build", passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds });
  return ok;
}

const [built] = await Promise.all([
  quick
    ? run("npx", ["next", "typegen"])
        .then(() => check("typecheck", "npx", ["tsc", "--noEmit"]))
        .then(() => false)
    : build(),
  // ESLint and Prettier keep what they checked in node_modules/.cache/, by content: a second run reads only what changed.
  check("lint (ESLint)", "npx", [
    "eslint",
    "--cache",
    "--cache-strategy",
    "content",
    "--cache-location",
    "node_modules/.cache/eslint/",
    ".",
  ]),
  check("format (Prettier)", "npx", ["prettier", "--check", "--cache", "--cache-strategy", "content", "."]),
  check("unused code (knip)", "npx", ["knip"]),
  // Every Markdown link and cited file or heading exists: a clone has nothing else to follow.
  check("links", "node", ["testing/check-links.mjs"]),
  // The import rules (.dependency-cruiser.cjs): lib/'s folders depend one way; the shop imports no tooling and not the
  // emulator, nor the emulator the shop. It keeps what it read in node_modules/.cache/ too, by content.
  check("imports (depcruise)", "npm", ["run", "--silent", "deps"]),
  // Vitest's unit project (no database, no programs of its own) is light enough to share the cores with these.
  suite(
    "unit",
    "npx",
    vitest("test-results/vitest.json", ["--project", "unit"]),
    "test-results/vitest.json",
    vitestCounts("unit"),
    { live: true },
  ),
]);

// 2. The database suites and the suites that start programs of their own.
if (!quick) {
  const name = "database and programs";
  const report = "test-results/vitest-database.json";
  await suite(
    name,
    "npx",
    vitest(report, ["--project", "database", "--project", "programs"]),
    report,
    vitestCounts(name),
    {
      live: true,
    },
  );
  if (TEST_DATABASE_URL) {
    // The database suites again, on a real PostgreSQL of another major version.
    const name = "database (TEST_DATABASE_URL)";
    const report = "test-results/vitest-pg.json";
    await suite(name, "npx", vitest(report, ["--project", "database"]), report, vitestCounts(name), {
      extraEnv: { TEST_DATABASE_URL },
      live: true,
    });
  }
}

// 3. Browser tests, counted per project.
if (built) {
  const projects = { en: "browser", ar: "browser (Arabic)", pooler: "browser via PgBouncer" };
  const playwrightCounts = (report) => {
    const groups = new Map();
    const group = (name) => groups.get(name) ?? groups.set(name, { name, passed: 0, failed: 0 }).get(name);
    const visit = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests) {
          const counts = group(projects[test.projectName] ?? test.projectName);
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
  const report = "test-results/playwright.json";
  await suite("browser", "npx", ["playwright", "test"], report, playwrightCounts, { live: true });
} else if (!quick) {
  rows.push({ name: "browser: not run, the build failed", passed: 0, failed: 1, seconds: 0 });
}

const { line, exitCode } = verdict(rows, (Date.now() - started) / 1000);
console.log("\nSummary");
for (const row of rows)
  console.log(
    `  ${row.failed ? "✗" : "✓"} ${row.name.padEnd(26)} ${String(row.passed).padStart(4)} passed ${String(row.failed).padStart(3)} failed  ${row.seconds.toFixed(1)}s`,
  );
if (quick) console.log("  (npm run check: no build, no database and no browser tests; npm test runs everything)");
console.log(line);
process.exit(exitCode);
