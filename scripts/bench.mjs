// `npm run bench`: builds the shop into .next-bench/, starts it (port 3200) and the emulator (port 4210), measures
// checkout latency against the payment service floor, throughput, page weight, Lighthouse and the emulator's own
// benchmark in one run on this machine, and writes docs/benchmarks.md. Not part of `npm test`.
//
//   npm run bench                   full run (about 5 minutes on 2 cores)
//   npm run bench -- --quick        small samples and short durations; writes .next-bench/benchmarks.quick.md
//   npm run bench -- --no-build     reuse the last .next-bench/ build
//   npm run bench -- --check        exit non-zero when a budget is missed (and say which)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { prepareShopPages, measurePageWeight, formatWeights } from "./page-weight.ts";
import { measureCheckoutLatency } from "./bench/checkout-latency.mjs";
import { emulatorBench } from "./bench/emulator-bench.mjs";
import { runLighthouse } from "./bench/lighthouse.mjs";
import { gitState, machine, renderReport } from "./bench/report.mjs";
import { DIST_DIR, EMULATOR_URL, SHOP_URL, build, killAllNow, startServers, stopAll } from "./bench/servers.mjs";
import { checkoutThroughput, homeThroughput } from "./bench/throughput.mjs";

const USAGE = "Usage: npm run bench -- [--quick] [--no-build] [--check]";
const args = process.argv.slice(2);
const unknown = args.filter((arg) => !["--quick", "--no-build", "--check", "--help", "-h"].includes(arg));
if (unknown.length || args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(unknown.length ? 2 : 0);
}
const quick = args.includes("--quick");
const check = args.includes("--check");

const settings = {
  quick,
  latency: quick ? { n: 30, warmup: 5, latencyMs: 25 } : { n: 200, warmup: 20, latencyMs: 25 },
  throughput: quick ? { connections: 10, durationSec: 3, poolSize: 20 } : { connections: 10, durationSec: 10, poolSize: 50 },
  // Lighthouse's own advice for a noisy score: the median of 5 runs.
  lighthouse: { runs: quick ? 1 : 5 },
  emulator: { pairs: quick ? 10_000 : 100_000 },
};
const output = quick ? `${DIST_DIR}/benchmarks.quick.md` : "docs/benchmarks.md";

// Whatever happens, the servers this run started are stopped.
process.on("exit", killAllNow);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the bench's servers…`);
    stopAll().finally(() => process.exit(130));
  });
}

/** 1-minute load average after each step: shows whether something else was using the CPU meanwhile. */
const loadAfter = {};

/** Runs one measurement; a failure is recorded (and reported) instead of ending the run. */
async function section(title, task) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  try {
    const value = await task();
    console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { ok: true, value };
  } catch (error) {
    console.error(`  ✗ ${title} failed: ${error instanceof Error ? error.message : error}`);
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    loadAfter[title.replace(/ \(.*$/, "").toLowerCase()] = os.loadavg()[0];
  }
}
const skipped = (reason) => ({ ok: false, error: reason });

const started = Date.now();
const results = { machine: machine() };
const [load] = results.machine.loadAtStart;
if (load > results.machine.cores / 2) {
  console.warn(`⚠ load average ${load.toFixed(2)} on ${results.machine.cores} cores: something else is running; the figures will be worse and noisier.`);
}
let fatal = null;
// What the build was made from: with --no-build, the source of the earlier build, not of today's working tree.
const sourceFile = `${DIST_DIR}/bench-source.json`;
try {
  if (!args.includes("--no-build")) {
    build();
    writeFileSync(sourceFile, JSON.stringify({ source: gitState(), builtAt: new Date().toISOString() }));
  }
  if (existsSync(sourceFile)) {
    const built = JSON.parse(readFileSync(sourceFile, "utf8"));
    results.machine.source = `${built.source}, built ${built.builtAt}`;
  }
  await startServers();
} catch (error) {
  fatal = error instanceof Error ? error.message : String(error);
  console.error(`✗ ${fatal}`);
}

let pages = [];
if (fatal) {
  for (const key of ["weights", "latency", "throughput", "lighthouse"]) results[key] = skipped(fatal);
} else {
  results.weights = await section("Page weight", async () => {
    pages = await prepareShopPages(SHOP_URL, EMULATOR_URL);
    const weights = [];
    for (const page of pages) weights.push({ ...page, ...(await measurePageWeight(new URL(page.path, SHOP_URL).href, page.cookie)) });
    console.log(formatWeights(weights).replace(/^/gm, "  "));
    return weights;
  });
  results.latency = await section(`Checkout latency (${settings.latency.n} checkouts, emulator +${settings.latency.latencyMs} ms a call)`, async () => {
    const value = await measureCheckoutLatency(settings.latency);
    console.log(`  checkout p50 ${value.checkout.p50.toFixed(1)} ms, floor p50 ${value.floor.p50.toFixed(1)} ms, ratio ${value.ratio.toFixed(3)}`);
    return value;
  });
  results.throughput = await section(`Throughput (autocannon, ${settings.throughput.connections} connections, ${settings.throughput.durationSec} s each)`, async () => {
    const checkout = await checkoutThroughput(settings.throughput);
    console.log(`  checkout: ${checkout.checkoutsPerSec.toFixed(1)} checkouts/s, p99 ${checkout.latency.p99} ms, codes ${JSON.stringify(checkout.statusCodes)}`);
    const home = await homeThroughput(settings.throughput);
    console.log(`  home: ${home.requestsPerSec.toFixed(1)} req/s, p99 ${home.latency.p99} ms, codes ${JSON.stringify(home.statusCodes)}`);
    return { checkout, home };
  });
  results.lighthouse = pages.length
    ? await section(`Lighthouse (mobile, ${settings.lighthouse.runs} run${settings.lighthouse.runs === 1 ? "" : "s"} a page)`, () =>
        runLighthouse(
          pages.filter((page) => page.budgeted).map((page) => ({ ...page, url: new URL(page.path, SHOP_URL).href })),
          settings.lighthouse,
        ),
      )
    : skipped("no pages: the page-weight step failed before preparing them");
}

console.log("\n▶ stopping the shop and the emulator");
await stopAll();
results.emulator = await section(`Emulator bench (${settings.emulator.pairs} pairs)`, async () => {
  const value = await emulatorBench(settings.emulator);
  const last = value.checkpoints.at(-1);
  console.log(`  ${value.pairsPerSecond} pairs/s; after ${last.pairs} pairs heapUsed ${last.heapUsedMB} MB, rss ${last.rssMB} MB`);
  return value;
});
results.elapsedMs = Date.now() - started;
results.loadAfter = loadAfter;

const { markdown, budgets } = renderReport(results, settings);
mkdirSync(output.replace(/\/[^/]+$/, ""), { recursive: true });
writeFileSync(output, `${markdown}\n`);

console.log(`\nBudgets (${output}):`);
for (const budget of budgets) console.log(`  ${budget.met ? "✓" : "✗"} ${budget.name}: ${budget.measured}${budget.enforced ? "" : " (reported only)"}`);
const missed = budgets.filter((budget) => budget.enforced && !budget.met);
const errors = ["weights", "latency", "throughput", "lighthouse", "emulator"].filter((key) => !results[key].ok);
if (errors.length) console.error(`✗ not measured: ${errors.join(", ")}`);
console.log(`Finished in ${(results.elapsedMs / 1000).toFixed(0)} s.`);
if (errors.length || fatal) process.exit(1);
if (check && missed.length) {
  console.error(`✗ --check: ${missed.length} budget${missed.length === 1 ? "" : "s"} missed: ${missed.map((budget) => budget.name).join("; ")}`);
  process.exit(1);
}
