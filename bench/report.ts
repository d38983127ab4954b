// The bench's report (docs/benchmarks.md): the budgets, met or missed, then the numbers behind them, as tables.
import os from "node:os";
import { ADMIN_P95_BUDGET_MS, type AdminTiming } from "./admin-pages";
import { LATENCY_P95_RATIO_BUDGET, LATENCY_RATIO_BUDGET, ratio, type LatencyRun } from "./checkout-latency";
import { CONDITIONS, type Condition } from "./contention";
import type { BenchResult } from "./emulator";
import { PERFORMANCE_MARGIN, type LighthouseResult } from "./lighthouse-scores";

/** Page-weight budgets: gzipped JavaScript a page may add to the app shell (the 404 page), in bytes. */
const JS_OVER_SHELL_BYTES = { shop: 10 * 1024, admin: 25 * 1024 };

/** The parts of a run, each of which `npm run bench -- --only <part>` can run alone. */
export const PARTS = ["checkout", "lighthouse", "weights", "admin", "emulator"] as const;
export type Part = (typeof PARTS)[number];

/** One measurement of the run: its value, or why it could not be taken. */
export type Section<T> = { ok: true; value: T } | { ok: false; error: string };

/** One page's gzipped weight in bytes; `group` says which budget holds it. */
export interface WeightRow {
  name: string;
  group: "shop" | "admin" | "shell" | "baseline";
  status: number;
  js: number;
  css: number;
  html: number;
}

export interface BenchResults {
  /** Where and when: `source` is the commit built, `minutes` the whole run's. */
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; source: string; date: string };
  minutes: number;
  quick: boolean;
  /** The parts measured, when `--only` picked some: the budgets of the others are left out. Absent: all of them. */
  only?: readonly Part[];
  /** The checkout latency and Lighthouse, once quietly and once with a busy loop per core. */
  conditions: Record<
    Condition,
    { latency: Section<LatencyRun[]>; lighthouse: Section<LighthouseResult>; cpuShare?: number }
  >;
  weights: Section<WeightRow[]>;
  /** Per database measured (its name): the back-office pages' timings. */
  admin: Section<Record<string, AdminTiming[]>>;
  orders: number;
  emulator: Section<BenchResult>;
}

export interface Budget {
  /** The part of the run that measures it. */
  part: Part;
  name: string;
  target: string;
  measured: string;
  met: boolean;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const signedKb = (bytes: number) => `${bytes < 0 ? "−" : "+"}${kb(Math.abs(bytes))}`;
const table = (head: string[], rows: (string | number)[][]) =>
  [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

/** The machine this process runs on, for {@link BenchResults.machine}. */
export function machine(source: string): BenchResults["machine"] {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    source,
    date: new Date().toISOString(),
  };
}

/** Every budget with what was measured; a section that was not measured misses its budgets. */
export function budgets(results: BenchResults): Budget[] {
  const list: Budget[] = [];
  const missing = (part: Part, name: string, target: string, error: string) =>
    list.push({ part, name, target, measured: `not measured: ${error}`, met: false });
  for (const condition of CONDITIONS) {
    const { latency, lighthouse } = results.conditions[condition];
    const name = `Checkout at 25 ms per API call, ${condition}`;
    const target = `shop p50 ≤ ${LATENCY_RATIO_BUDGET.toFixed(2)} × baseline p50, p95 ≤ ${LATENCY_P95_RATIO_BUDGET.toFixed(2)} × baseline p95`;
    const run = latency.ok ? latency.value.find((candidate) => candidate.latencyMs === 25) : undefined;
    if (!run) missing("checkout", name, target, latency.ok ? "no run at 25 ms" : latency.error);
    else {
      const shops = run.arms.filter((arm) => arm.key.startsWith("shop"));
      const ratios = shops.map((arm) => ({ arm, r: ratio(run, arm.key, "baseline") }));
      list.push({
        part: "checkout",
        name,
        target,
        measured: ratios.map(({ arm, r }) => `${arm.name}: ${r.p50.toFixed(3)}× (p95 ${r.p95.toFixed(3)}×)`).join("; "),
        met: ratios.every(({ r }) => r.p50 <= LATENCY_RATIO_BUDGET && r.p95 <= LATENCY_P95_RATIO_BUDGET),
      });
    }
    const lhName = `Lighthouse performance (mobile), ${condition}`;
    const lhTarget = `every page ≥ baseline − ${PERFORMANCE_MARGIN}`;
    if (!lighthouse.ok) missing("lighthouse", lhName, lhTarget, lighthouse.error);
    else {
      const { baseline, pages } = lighthouse.value;
      const lowest = Math.min(...pages.map((page) => page.performance));
      list.push({
        part: "lighthouse",
        name: lhName,
        target: lhTarget,
        measured: `baseline ${baseline.performance.toFixed(2)}, lowest page ${lowest.toFixed(2)}`,
        met: pages.every((page) => page.performance >= baseline.performance - PERFORMANCE_MARGIN),
      });
    }
  }
  for (const group of ["shop", "admin"] as const) {
    const name = `Page weight, ${group} pages`;
    const target = `gzipped JS ≤ app shell ${signedKb(JS_OVER_SHELL_BYTES[group])}`;
    const shell = results.weights.ok ? results.weights.value.find((row) => row.group === "shell") : undefined;
    const rows = results.weights.ok ? results.weights.value.filter((row) => row.group === group) : [];
    if (!results.weights.ok) missing("weights", name, target, results.weights.error);
    else if (!shell || rows.length === 0) missing("weights", name, target, shell ? `no ${group} page` : "no app shell");
    else {
      const largest = rows.reduce((a, b) => (b.js > a.js ? b : a));
      list.push({
        part: "weights",
        name,
        target,
        measured: `largest: ${largest.name}, shell ${signedKb(largest.js - shell.js)}`,
        met: rows.every((row) => row.js - shell.js <= JS_OVER_SHELL_BYTES[group]),
      });
    }
  }
  const adminName = `Back office list and search at ${results.orders.toLocaleString("en")} orders`;
  const adminTarget = `p95 ≤ ${ADMIN_P95_BUDGET_MS} ms on every database`;
  if (!results.admin.ok) missing("admin", adminName, adminTarget, results.admin.error);
  else {
    const timings = Object.values(results.admin.value).flat();
    const slowest = timings.reduce((a, b) => (b.summary.p95 > a.summary.p95 ? b : a));
    list.push({
      part: "admin",
      name: adminName,
      target: adminTarget,
      measured: `slowest p95: ${slowest.name}, ${ms(slowest.summary.p95)}`,
      met: timings.every((timing) => timing.summary.p95 <= ADMIN_P95_BUDGET_MS),
    });
  }
  const { only } = results;
  return only ? list.filter((budget) => only.includes(budget.part)) : list;
}

/** The command line's flags that change what a run measures, as typed after `npm run bench`: "" for a full run. */
const flags = ({ quick, only }: BenchResults) => {
  const list = [...(only ? ["--only", only.join(",")] : []), ...(quick ? ["--quick"] : [])];
  return list.length > 0 ? ` -- ${list.join(" ")}` : "";
};

/** docs/benchmarks.md for `results`: a table per measurement, budgets first. */
export function renderReport(results: BenchResults): string {
  const { machine: m, conditions } = results;
  const notMeasured = (section: { ok: false; error: string }) => `Not measured: ${section.error}`;
  const lines = [
    "# Benchmarks",
    "",
    `Written by \`npm run bench${flags(results)}\` (\`bench/run.ts\`); do not edit by hand. ` +
      `One run of ${results.minutes.toFixed(0)} min on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB.toFixed(1)} GiB, ` +
      `Node.js ${m.node}; source ${m.source}, ${m.date}. Compare runs only from the same machine. What each figure ` +
      "measures and against what: docs/performance.md.",
    "",
    "## Budgets",
    "",
    table(
      ["Budget", "Target", "Measured", "Result"],
      budgets(results).map((b) => [b.name, b.target, b.measured, b.met ? "✅ met" : "❌ missed"]),
    ),
    "",
    "## Checkout latency",
    "",
    "Shop: its no-JavaScript checkout form post; baseline: the bare Next.js app's; raw: the two API calls alone. Where",
    "the shop's extra time goes, and the database statements of one checkout: docs/performance.md.",
    "",
  ];
  const latencyRows: string[][] = [];
  for (const condition of CONDITIONS) {
    const latency = conditions[condition].latency;
    if (!latency.ok) latencyRows.push([condition, "—", notMeasured(latency), "", "", "", ""]);
    for (const run of latency.ok ? latency.value : []) {
      const p50 = (key: string) => run.arms.find((arm) => arm.key === key)!.summary.p50;
      for (const shop of run.arms.filter((arm) => arm.key.startsWith("shop"))) {
        const r = ratio(run, shop.key, "baseline");
        latencyRows.push([
          `${condition}, n = ${run.n}`,
          `${run.latencyMs} ms`,
          `${shop.name}: ${ms(shop.summary.p50)}`,
          ms(p50("baseline")),
          ms(p50("raw")),
          ms(shop.summary.p50 - p50("baseline")),
          `**${r.p50.toFixed(3)}×** (p95 ${r.p95.toFixed(3)}×)`,
        ]);
      }
    }
  }
  lines.push(
    table(
      ["Condition", "Per API call", "Shop p50", "Baseline p50", "Raw p50", "Shop − baseline", "Shop / baseline p50"],
      latencyRows,
    ),
  );
  const share = conditions.contended.cpuShare;
  const taking = share === undefined ? "" : `, each taking ${(share * 100).toFixed(0)} % of a core`;
  lines.push("", `Contended: one busy loop per core${taking}.`, "", "## Lighthouse (mobile)", "");
  const quiet = conditions.quiet.lighthouse;
  const contended = conditions.contended.lighthouse;
  if (!quiet.ok) lines.push(notMeasured(quiet));
  else {
    const again = (key: string) =>
      contended.ok
        ? ([contended.value.baseline, ...contended.value.pages]
            .find((page) => page.key === key)
            ?.performance.toFixed(2) ?? "—")
        : "—";
    lines.push(
      `Performance: the median of ${quiet.value.runs} runs per page, interleaved with the baseline app's page. ` +
        "The other columns: the quiet median run.",
      "",
      table(
        ["Page", "Performance, quiet", "Contended", "Accessibility", "Best practices", "LCP", "TBT"],
        [quiet.value.baseline, ...quiet.value.pages].map((page) => [
          page.name,
          `**${page.performance.toFixed(2)}**`,
          again(page.key),
          page.accessibility.toFixed(2),
          page.bestPractices.toFixed(2),
          page.lcp,
          page.tbt,
        ]),
      ),
    );
  }
  lines.push("", "## Page weight (gzipped, level 9)", "");
  if (!results.weights.ok) lines.push(notMeasured(results.weights));
  else {
    const shell = results.weights.value.find((row) => row.group === "shell");
    lines.push(
      table(
        ["Page", "Status", "JS", "JS vs app shell", "CSS", "HTML"],
        results.weights.value.map((row) => [
          row.name,
          row.status,
          `**${kb(row.js)}**`,
          shell && row !== shell ? signedKb(row.js - shell.js) : "—",
          kb(row.css),
          kb(row.html),
        ]),
      ),
    );
  }
  lines.push("", `## Back office at ${results.orders.toLocaleString("en")} orders (server time)`, "");
  if (!results.admin.ok) lines.push(notMeasured(results.admin));
  else
    lines.push(
      table(
        ["Database", "Page", "n", "p50", "p95", "max"],
        Object.entries(results.admin.value).flatMap(([database, timings]) =>
          timings.map((t) => [
            database,
            t.name,
            t.summary.n,
            ms(t.summary.p50),
            `**${ms(t.summary.p95)}**`,
            ms(t.summary.max),
          ]),
        ),
      ),
    );
  lines.push("", "## Emulator (token + create pairs in-process, memory after a forced GC)", "");
  if (!results.emulator.ok) lines.push(notMeasured(results.emulator));
  else
    lines.push(
      table(
        ["Pairs", "Pairs/s", "heapUsed", "RSS"],
        results.emulator.value.checkpoints.map((c) => [
          c.pairs,
          c.pairsPerSecond,
          `${c.heapUsedMB} MB`,
          `${c.rssMB} MB`,
        ]),
      ),
    );
  return `${lines.join("\n")}\n`;
}
