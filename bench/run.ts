// `npm run bench`: what the shop costs against its floor, a bare Next.js app doing the same job (bench/baseline/),
// built and started in the same run; writes docs/benchmarks.md (bench/report.ts). Not part of `npm test`.
//
//   npm run bench                   full run (about 15 minutes on 2 cores)
//   npm run bench -- --quick        small samples; writes .next-bench/benchmarks.quick.md
//   npm run bench -- --no-build     reuse the last builds (.next-bench/ and .next-bench-baseline/)
//   npm run bench -- --check        exit 1 when a budget is missed
//   npm run bench -- --only checkout
//                                   only these parts (comma-separated: checkout, lighthouse, weights, admin,
//                                   emulator); writes .next-bench/benchmarks.<parts>.md and --check checks their
//                                   budgets. The checkout latency alone with --no-build: about 2 minutes with
//                                   --quick (n = 30), 8 without (n = 200); a build adds 1–2
//   BENCH_DATABASE_URL=postgresql://user:pass@host:5432/postgres npm run bench
//                                   also measure on that PostgreSQL (a database is created there and dropped)
//
// The processes (scripts/servers.ts, each in its own process group, all stopped on exit or Ctrl-C): the emulator on
// 4210, a throwaway embedded PostgreSQL, the shop on 3200 (embedded database) and 3201 (BENCH_DATABASE_URL), the
// baseline app on 3202; for the contended condition, one busy loop per core (bench/contention.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import {
  createAdmin,
  createDatabase,
  EMBEDDED_POSTGRES_MAJOR,
  killAllNow,
  migrate,
  ROOT,
  type RunningApp,
  type RunningEmulator,
  runToCompletion,
  seedTestProducts,
  startEmbeddedDatabase,
  startEmulator,
  startNextApp,
  startShop,
  stopAll,
} from "../scripts/servers";
import { measurePageWeight, prepareShopPages } from "../testing/page-weight";
import { BENCH_ADMIN, adminQueries, measureAdminPages, signInAdmin, type AdminTiming } from "./admin-pages";
import { BASELINE_DIR, DIST_DIR, buildBaseline, buildShop, buildsExist } from "./build";
import { CLIENT_ID, CLIENT_SECRET, measureCheckoutLatency, ratio, type ShopUnderTest } from "./checkout-latency";
import { CONDITIONS, startContention, type Condition } from "./contention";
import type { BenchResult } from "./emulator";
import { lighthouseBrowser, type RunLighthouse } from "./lighthouse-scores";
import { ensurePackages } from "./packages";
import {
  budgets,
  machine,
  PARTS,
  renderReport,
  type BenchResults,
  type Part,
  type Section,
  type WeightRow,
} from "./report";
import { seedOrders, type SeededOrders } from "./seed";

const FLAGS = ["--quick", "--no-build", "--check"];
const argv = process.argv.slice(2);
// `--only <parts>`: the value after it is a list of parts, not a flag.
const onlyAt = argv.indexOf("--only");
const only = onlyAt === -1 ? undefined : (argv[onlyAt + 1] ?? "").split(",");
const args = onlyAt === -1 ? argv : argv.filter((_, index) => index !== onlyAt && index !== onlyAt + 1);
if (args.some((arg) => !FLAGS.includes(arg)) || only?.some((part) => !(PARTS as readonly string[]).includes(part))) {
  console.log(`Usage: npm run bench -- [--quick] [--no-build] [--check] [--only ${PARTS.join("|")}[,…]]`);
  process.exit(args.includes("--help") || args.includes("-h") ? 0 : 2);
}
const quick = args.includes("--quick");
/** Whether this run measures `part`: every part, unless `--only` names some. */
const measures = (part: Part) => !only || only.includes(part);
process.chdir(ROOT);

// Lighthouse and its launcher are the bench's own packages (bench/package.json), installed on first use; the one
// module that imports them, bench/lighthouse.ts, is type-checked here rather than by the root's `tsc`. A run without
// Lighthouse needs neither.
if (measures("lighthouse")) {
  try {
    await lighthouseBrowser();
    ensurePackages(path.join(ROOT, "bench"), "the bench's own packages (Lighthouse, chrome-launcher)");
    typecheckBench();
  } catch (error) {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** `tsc -p bench`, with the root's TypeScript (7's native tsc, as `npm run typecheck`). @throws when it reports an error (printed above). */
function typecheckBench(): void {
  console.log("▶ tsc -p bench");
  const tsc = path.join(ROOT, "node_modules/@typescript/native/bin/tsc");
  if (spawnSync(process.execPath, [tsc, "-p", "bench"], { stdio: "inherit" }).status !== 0)
    throw new Error("the bench does not typecheck (above): fix it before a 15-minute run finds out");
}

const PORTS = { shop: 3200, shopPostgres: 3201, baseline: 3202, emulator: 4210 };
const ORDERS = 100_000;
const settings = {
  latency: { n: quick ? 30 : 200, warmup: quick ? 5 : 20 },
  // The budget's latency in both conditions; 100 ms per call (a slower service) quietly only.
  latenciesMs: { quiet: [25, 100], contended: [25] } satisfies Record<Condition, number[]>,
  admin: quick ? { n: 10, warmup: 3 } : { n: 60, warmup: 10 },
  // Lighthouse's own advice for a noisy score: the median of 5 runs.
  lighthouseRuns: quick ? 1 : 5,
  emulatorPairs: quick ? 10_000 : 100_000,
};
// docs/benchmarks.md is a full run's; a smaller one writes beside the build.
const smaller = [...(only ?? []), ...(quick ? ["quick"] : [])];
const output = smaller.length > 0 ? `${DIST_DIR}/benchmarks.${smaller.join(".")}.md` : "docs/benchmarks.md";

// Whatever happens, the processes this run started are stopped.
process.on("exit", killAllNow);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => void stopAll().finally(() => process.exit(130)));

const notRun: Section<never> = { ok: false, error: "not run" };

/** Runs one measurement; a failure is recorded (the report says it was not measured) instead of ending the run. */
async function section<T>(title: string, task: () => Promise<T>): Promise<Section<T>> {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  try {
    const value = await task();
    console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { ok: true, value };
  } catch (error) {
    console.error(`  ✗ ${title} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** {@link section} when this run measures `part`; else "not run". */
const measured = <T>(part: Part, title: string, task: () => Promise<T>): Promise<Section<T>> =>
  measures(part) ? section(title, task) : Promise.resolve(notRun);

/** The shop's configuration for the bench (the secrets are for this bench only). */
const shopEnv = (port: number, emulator: string, databaseUrl?: string): Record<string, string> => ({
  PAYMENT_API_BASE_URL: `${emulator}/pay/sandbox/api/v1`,
  PAYMENT_CLIENT_ID: CLIENT_ID,
  PAYMENT_CLIENT_SECRET: CLIENT_SECRET,
  SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
  ORDER_LINK_SECRET: "bench-only-order-link-secret-0123456789abcdef",
  PAYMENT_WEBHOOK_SECRET: "bench-only-webhook-secret-0123456789",
  CRON_SECRET: "bench-only-cron-secret-0123456789",
  SITE_URL: `http://localhost:${port}`,
  LOG_LEVEL: "warn",
  // Every checkout of the bench comes from this machine's address: the budget per address must not be what is measured.
  PAYMENTS_PER_ADDRESS: "10000",
  HELD_UNITS_PER_ADDRESS: "100000",
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const logFile = (name: string) => ({ file: path.join(ROOT, DIST_DIR, `bench-${name}.log`) });

interface Stack {
  emulator: RunningEmulator;
  shops: (ShopUnderTest & { database: string; seeded: SeededOrders })[];
  baseline: RunningApp;
  dropDatabases(): Promise<void>;
}

/** The emulator, the databases (migrated, seeded, with the bench's admin), a shop on each, and the baseline app. */
async function startStack(): Promise<Stack> {
  const emulator = await startEmulator({
    port: PORTS.emulator,
    // The emulator confirms payments to the (embedded) shop with signed webhooks, as the live service does.
    env: {
      EMULATOR_WEBHOOK_URL: `http://localhost:${PORTS.shop}/api/payments/webhook`,
      EMULATOR_WEBHOOK_SECRET: shopEnv(PORTS.shop, "").PAYMENT_WEBHOOK_SECRET!,
    },
    output: logFile("emulator"),
  });
  const embedded = await startEmbeddedDatabase();
  const databases = [{ name: `Embedded PostgreSQL ${EMBEDDED_POSTGRES_MAJOR}`, url: embedded.url, port: PORTS.shop }];
  const drops = [() => embedded.stop()];
  const server = process.env.BENCH_DATABASE_URL;
  if (server) {
    const name = `shop_bench_${process.pid}`;
    const url = await createDatabase(server, name);
    databases.push({ name: `PostgreSQL (${new URL(server).host})`, url, port: PORTS.shopPostgres });
    drops.push(async () => {
      const admin = new Pool({ connectionString: server, max: 1 });
      await admin.query(`drop database if exists ${name} with (force)`).finally(() => admin.end());
    });
  }
  const shops: Stack["shops"] = [];
  for (const database of databases) {
    console.log(`  ${database.name}: migrating, seeding ${ORDERS.toLocaleString("en")} orders, creating the admin…`);
    await migrate(database.url);
    await seedTestProducts(database.url);
    const seeded = await seedOrders(database.url, ORDERS);
    await createAdmin(database.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
    const key = `shop-${shops.length}`;
    const app = await startShop({
      port: database.port,
      distDir: DIST_DIR,
      env: shopEnv(database.port, emulator.url, database.url),
      output: logFile(key),
    });
    shops.push({ key, name: `Shop, ${database.name}`, url: app.url, database: database.name, seeded });
  }
  const baseline = await startNextApp("the baseline app", BASELINE_DIR, {
    port: PORTS.baseline,
    env: {
      PAYMENT_API_BASE_URL: emulator.apiBase,
      PAYMENT_CLIENT_ID: CLIENT_ID,
      PAYMENT_CLIENT_SECRET: CLIENT_SECRET,
      SITE_URL: `http://localhost:${PORTS.baseline}`,
    },
    output: logFile("baseline"),
  });
  return {
    emulator,
    shops,
    baseline,
    async dropDatabases() {
      for (const drop of drops) await drop().catch((error: unknown) => console.warn(`⚠ ${String(error)}`));
    },
  };
}

/** Gzipped JS, CSS and HTML of every shop page, three back-office pages and the baseline app's page. */
async function pageWeights({ shops: [shop], emulator, baseline }: Stack): Promise<WeightRow[]> {
  const pages = await prepareShopPages(shop!.url, emulator.url);
  const cookie = await signInAdmin(shop!.url);
  const orderId = pages.find((page) => page.key === "order")!.path.match(/ord_[0-9a-z]+/)![0];
  const targets: (Pick<WeightRow, "name" | "group"> & { url: string; cookie: string })[] = [
    ...pages.map((page) => ({
      name: page.name,
      group: page.key === "shell" ? ("shell" as const) : ("shop" as const),
      url: new URL(page.path, shop!.url).href,
      cookie: page.cookie,
    })),
    { name: "Admin: sign-in", group: "admin", url: `${shop!.url}/admin/sign-in`, cookie: "" },
    { name: "Admin: orders list", group: "admin", url: `${shop!.url}/admin/orders`, cookie },
    { name: "Admin: one order", group: "admin", url: `${shop!.url}/admin/orders/${orderId}`, cookie },
    { name: "Baseline app's page", group: "baseline", url: `${baseline.url}/checkout`, cookie: "" },
  ];
  const rows: WeightRow[] = [];
  for (const { name, group, url, cookie } of targets) {
    const weight = await measurePageWeight(url, cookie);
    rows.push({ name, group, status: weight.status, js: weight.js.gzip, css: weight.css.gzip, html: weight.html.gzip });
    console.log(`  ${name.padEnd(28)} JS ${(weight.js.gzip / 1024).toFixed(1)} KB`);
  }
  return rows;
}

async function adminTimings(stack: Stack): Promise<Record<string, AdminTiming[]>> {
  const result: Record<string, AdminTiming[]> = {};
  for (const shop of stack.shops) {
    const cookie = await signInAdmin(shop.url);
    result[shop.database] = await measureAdminPages(shop.url, cookie, adminQueries(shop.seeded), settings.admin);
    for (const t of result[shop.database]!)
      console.log(`  ${t.name.padEnd(44)} p50 ${t.summary.p50.toFixed(1)} ms  p95 ${t.summary.p95.toFixed(1)} ms`);
  }
  return result;
}

/**
 * bench/lighthouse.ts, loaded by a path the root typecheck does not follow: a plain `npm install` has no Lighthouse
 * to check it against. `tsc -p bench` (above) checks that it exports a {@link RunLighthouse}.
 */
async function loadLighthouse(): Promise<RunLighthouse> {
  const runner = "./lighthouse.ts";
  return ((await import(runner)) as { runLighthouse: RunLighthouse }).runLighthouse;
}

/** The checkout latency and Lighthouse in one condition: quiet, or with one busy loop per core. */
async function measureCondition(stack: Stack, condition: Condition): Promise<BenchResults["conditions"][Condition]> {
  if (!measures("checkout") && !measures("lighthouse")) return { latency: notRun, lighthouse: notRun };
  const contention = condition === "contended" ? await startContention() : undefined;
  const latency = await measured("checkout", `Checkout latency, ${condition}`, async () => {
    const runs = [];
    for (const latencyMs of settings.latenciesMs[condition]) {
      const run = await measureCheckoutLatency({
        ...settings.latency,
        shops: stack.shops,
        baselineUrl: stack.baseline.url,
        emulator: stack.emulator,
        latencyMs,
      });
      for (const shop of stack.shops)
        console.log(`  ${latencyMs} ms, ${shop.name}: ${ratio(run, shop.key, "baseline").p50.toFixed(3)}×`);
      runs.push(run);
    }
    return runs;
  });
  const lighthouse = await measured("lighthouse", `Lighthouse, ${condition}`, async () => {
    const shop = stack.shops[0]!;
    const pages = (await prepareShopPages(shop.url, stack.emulator.url)).filter((page) => page.budgeted);
    const runLighthouse = await loadLighthouse();
    return runLighthouse(
      { key: "baseline", name: "Baseline app", url: `${stack.baseline.url}/checkout` },
      pages.map((page) => ({ ...page, url: new URL(page.path, shop.url).href, cookie: page.cookie || undefined })),
      { runs: settings.lighthouseRuns },
    );
  });
  // `section` catches every failure, so the loops are always stopped here.
  return { latency, lighthouse, cpuShare: await contention?.stop() };
}

/** `bench/emulator.ts` in a node of its own, with a forced GC for steady memory figures. */
async function emulatorBench(): Promise<BenchResult> {
  const script = "bench/emulator.ts";
  const args = ["--expose-gc", "--import", "tsx", script, "--pairs", String(settings.emulatorPairs), "--json"];
  const { status, stdout, stderr } = await runToCompletion(process.execPath, args);
  if (status !== 0)
    throw new Error(`${script} exited with ${status}: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
  return JSON.parse(stdout.trim().split("\n").pop()!) as BenchResult;
}

// ───────────────────────────────────────────── the run ─────────────────────────────────────────────
const started = Date.now();
if (os.loadavg()[0]! > os.availableParallelism() / 2)
  console.warn(`⚠ load average ${os.loadavg()[0]!.toFixed(2)}: something else is running; expect worse figures.`);
const sourceFile = `${DIST_DIR}/bench-source.txt`;
/** Whether this run measures anything of the built shop (everything but the emulator's own bench). */
const needsShop = PARTS.some((part) => part !== "emulator" && measures(part));
const results: BenchResults = {
  machine: machine("unknown"),
  minutes: 0,
  quick,
  only: only as Part[] | undefined,
  conditions: {
    quiet: { latency: notRun, lighthouse: notRun },
    contended: { latency: notRun, lighthouse: notRun },
  },
  weights: notRun,
  admin: notRun,
  orders: ORDERS,
  emulator: notRun,
};
let fatal: unknown;
try {
  if (!needsShop) {
    // The emulator's own bench needs no build and no server.
  } else if (args.includes("--no-build")) {
    const missing = buildsExist();
    if (missing) throw new Error(missing);
  } else {
    buildShop(shopEnv(PORTS.shop, `http://127.0.0.1:${PORTS.emulator}`));
    buildBaseline();
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== "";
    writeFileSync(sourceFile, `${head}${dirty ? " with uncommitted changes" : ""}`);
  }
  if (existsSync(sourceFile)) results.machine.source = readFileSync(sourceFile, "utf8");
  if (needsShop) {
    console.log("\n▶ starting the emulator, the databases, the shop and the baseline app");
    const stack = await startStack();
    try {
      // The back office first, while the seeded database is as seeded.
      results.admin = await measured("admin", `Admin pages at ${ORDERS.toLocaleString("en")} orders`, () =>
        adminTimings(stack),
      );
      results.weights = await measured("weights", "Page weight", () => pageWeights(stack));
      for (const condition of CONDITIONS) results.conditions[condition] = await measureCondition(stack, condition);
    } finally {
      await stopAll();
      await stack.dropDatabases();
    }
  }
  results.emulator = await measured("emulator", `Emulator (${settings.emulatorPairs} pairs)`, emulatorBench);
} catch (error) {
  fatal = error;
  console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
}

results.minutes = (Date.now() - started) / 60_000;
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(output, renderReport(results));
const list = budgets(results);
console.log(`\nBudgets (${output}):`);
for (const budget of list) console.log(`  ${budget.met ? "✓" : "✗"} ${budget.name}: ${budget.measured}`);
const missed = list.filter((budget) => !budget.met).length;
if (fatal) process.exit(1);
if (args.includes("--check") && missed) {
  console.error(`✗ --check: ${missed} budget${missed === 1 ? "" : "s"} missed`);
  process.exit(1);
}
process.exit(0);
