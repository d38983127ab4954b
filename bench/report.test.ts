import { describe, expect, it } from "vitest";
import { budgets, renderReport, type BenchResults } from "./report";

const summary = (p50: number, p95 = p50) => ({ n: 200, min: p50, p50, p95, p99: p95, max: p95, mean: p50 });
const latency = (shopP50: number, shopP95 = shopP50) => ({
  ok: true as const,
  value: [
    {
      latencyMs: 25,
      n: 200,
      arms: [
        { key: "shop-0", name: "Shop, Embedded PostgreSQL 17", summary: summary(shopP50, shopP95) },
        { key: "baseline", name: "Baseline", summary: summary(60) },
        { key: "raw", name: "Raw calls", summary: summary(55) },
      ],
    },
  ],
});
const scores = (key: string, performance: number) => ({
  key,
  name: key,
  performance,
  accessibility: 1,
  bestPractices: 1,
  lcp: "1.0 s",
  tbt: "10 ms",
});
const lighthouse = (lowest: number) => ({
  ok: true as const,
  value: { runs: 5, baseline: scores("baseline", 1), pages: [scores("home", 1), scores("checkout", lowest)] },
});
const weight = (name: string, group: "shop" | "admin" | "shell", js: number) => ({
  name,
  group,
  status: 200,
  js,
  css: 5_000,
  html: 3_000,
});

function results(overrides: Partial<BenchResults> = {}): BenchResults {
  return {
    machine: { cpu: "test CPU", cores: 2, memoryGiB: 8, node: "v20", source: "abc1234", date: "2026-01-01" },
    minutes: 15,
    quick: false,
    orders: 100_000,
    conditions: {
      quiet: { latency: latency(63), lighthouse: lighthouse(0.99) },
      contended: { latency: latency(64), lighthouse: lighthouse(0.98), cpuShare: 0.8 },
    },
    weights: {
      ok: true,
      value: [weight("Home", "shop", 140_000), weight("Shell", "shell", 139_000), weight("Admin", "admin", 150_000)],
    },
    admin: {
      ok: true,
      value: {
        "Embedded PostgreSQL 17": [{ key: "list", name: "List", path: "/admin/orders", summary: summary(30, 40) }],
      },
    },
    emulator: { ok: false, error: "not run" },
    ...overrides,
  };
}

describe("budgets", () => {
  it("meets every budget when the shop is within each margin", () => {
    expect(budgets(results()).filter((budget) => !budget.met)).toEqual([]);
  });

  it("misses the checkout budget of the condition whose ratio is above 1.10, and says the ratio", () => {
    const slow = results();
    slow.conditions.contended.latency = latency(67); // 67 / 60 = 1.117
    const missed = budgets(slow).filter((budget) => !budget.met);
    expect(missed.map((budget) => budget.name)).toEqual(["Checkout at 25 ms per API call, contended"]);
    expect(missed[0]!.measured).toContain("1.117×");
  });

  it("misses the checkout budget when its p95 is above 1.20 × the baseline's, even with its p50 within 1.10", () => {
    const spiky = results();
    spiky.conditions.quiet.latency = latency(63, 73); // p50 63 / 60 = 1.05; p95 73 / 60 = 1.217
    const missed = budgets(spiky).filter((budget) => !budget.met);
    expect(missed.map((budget) => budget.name)).toEqual(["Checkout at 25 ms per API call, quiet"]);
    expect(missed[0]!.measured).toContain("p95 1.217×");
  });

  it("misses the Lighthouse, page-weight and admin budgets past their margins", () => {
    const heavy = results({
      weights: { ok: true, value: [weight("Home", "shop", 150_000), weight("Shell", "shell", 139_000)] },
      admin: { ok: true, value: { PostgreSQL: [{ key: "deep", name: "Deep", path: "/", summary: summary(90, 201) }] } },
    });
    heavy.conditions.quiet.lighthouse = lighthouse(0.96);
    expect(budgets(heavy).filter((budget) => !budget.met)).toMatchObject([
      { name: "Lighthouse performance (mobile), quiet", measured: "baseline 1.00, lowest page 0.96" },
      { name: "Page weight, shop pages", measured: "largest: Home, shell +10.7 KB" },
      { name: "Page weight, admin pages", measured: "not measured: no admin page" },
      { name: "Back office list and search at 100,000 orders", measured: "slowest p95: Deep, 201.0 ms" },
    ]);
  });

  it("counts a measurement that failed as a missed budget, with its error", () => {
    const failed = results({ weights: { ok: false, error: "the shop answered 500" } });
    const weightBudgets = budgets(failed).filter((budget) => budget.name.startsWith("Page weight"));
    expect(weightBudgets.map((budget) => [budget.met, budget.measured])).toEqual([
      [false, "not measured: the shop answered 500"],
      [false, "not measured: the shop answered 500"],
    ]);
  });

  it("with --only, holds the run to the budgets of the parts it measured", () => {
    const checkoutOnly = results({ only: ["checkout"], weights: { ok: false, error: "not run" } });
    expect(budgets(checkoutOnly).map((budget) => [budget.part, budget.name])).toEqual([
      ["checkout", "Checkout at 25 ms per API call, quiet"],
      ["checkout", "Checkout at 25 ms per API call, contended"],
    ]);
    expect(renderReport(checkoutOnly)).toContain("Written by `npm run bench -- --only checkout` (`bench/run.ts`)");
  });
});

describe("renderReport", () => {
  it("writes the budgets and the numbers as tables, and says what was not measured", () => {
    const report = renderReport(results());
    for (const line of [
      "| Checkout at 25 ms per API call, quiet | shop p50 ≤ 1.10 × baseline p50, p95 ≤ 1.20 × baseline p95 |",
      "| quiet, n = 200 | 25 ms | Shop, Embedded PostgreSQL 17: 63.0 ms | 60.0 ms | 55.0 ms | 3.0 ms | **1.050×** (p95 1.050×)",
      "| home | **1.00** | 1.00 | 1.00 | 1.00 | 1.0 s | 10 ms |",
      "| Home | 200 | **136.7 KB** | +1.0 KB | 4.9 KB | 2.9 KB |",
      "| Embedded PostgreSQL 17 | List | 200 | 30.0 ms | **40.0 ms** | 40.0 ms |",
      "## Emulator (token + create pairs in-process, memory after a forced GC)\n\nNot measured: not run",
    ])
      expect(report).toContain(line);
  });
});
