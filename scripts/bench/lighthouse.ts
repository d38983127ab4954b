// Lighthouse in its default mobile profile (form factor "mobile", simulated throttling) on Debian's chromium,
// launched by chrome-launcher (a lighthouse dependency). Absolute scores on 2 busy cores move from run to run, so
// every shop page is compared with the baseline app's page measured in the same run, interleaved:
// baseline, home, baseline, product, … — five rounds; each page's median against the median of every baseline run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags, type Result } from "lighthouse";
import { median } from "./stats";

/** Budget: every shop page's median performance ≥ the baseline's median − 0.03. */
export const PERFORMANCE_MARGIN = 0.03;
/** What another issue wants for accessibility and best practices on home, product, cart and checkout. */
export const QUALITY_TARGET = 0.95;
export const QUALITY_PAGES = ["home", "product", "cart", "checkout"];

export const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const CATEGORIES = ["performance", "accessibility", "best-practices"];
const METRICS: Record<string, string> = {
  "first-contentful-paint": "FCP",
  "largest-contentful-paint": "LCP",
  "total-blocking-time": "TBT",
  "cumulative-layout-shift": "CLS",
  "speed-index": "SI",
};

/** CHROMIUM_PATH if set, else Playwright's own chromium if installed, else Debian's (as playwright.config.ts does). */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    const { chromium } = await import("playwright-core");
    if (existsSync(chromium.executablePath())) return chromium.executablePath();
  } catch {
    // no Playwright: fall through
  }
  return "/usr/bin/chromium";
}

/** `Chromium 156.0.… built on Debian …`, or the path when the binary does not say. */
export function chromiumVersion(path: string): string {
  const { stdout } = spawnSync(path, ["--version"], { encoding: "utf8" });
  return stdout?.trim().split("\n").pop() || path;
}

export interface LostAudit {
  id: string;
  score: number;
  value: string;
}

type Audit = Result["audits"][string];

/** The first two detail items of an audit in a few words (console errors, inspector issues, failing nodes). */
function itemSummary(audit: Audit): string {
  const details = audit.details as { items?: Record<string, unknown>[] } | undefined;
  const describe = (item: Record<string, unknown>) => {
    const location = item.sourceLocation as { url?: string } | undefined;
    const url = location?.url ?? (item.url as string | undefined);
    if (item.description) return `${String(item.description)}${url ? ` ${url}` : ""}`;
    const node = item.node as { snippet?: string } | undefined;
    if (node?.snippet) return node.snippet.slice(0, 120);
    return "";
  };
  return (details?.items ?? []).slice(0, 2).map(describe).filter(Boolean).join("; ");
}

/** Audits of `category` that lost points, worst first. */
function failedAudits(lhr: Result, category: string): LostAudit[] {
  return lhr.categories[category]!.auditRefs.filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id]!)
    .filter(
      (audit) =>
        audit.score !== null &&
        audit.score < 1 &&
        audit.scoreDisplayMode !== "informative" &&
        audit.scoreDisplayMode !== "manual",
    )
    .sort((a, b) => a.score! - b.score!)
    .map((audit) => ({ id: audit.id, score: audit.score!, value: audit.displayValue || itemSummary(audit) }));
}

export interface LighthousePage {
  key: string;
  name: string;
  url: string;
  cookie?: string;
}

export interface PageScores {
  key: string;
  name: string;
  url: string;
  /** Performance score of every run, in run order. */
  performanceRuns: number[];
  failedRuns: number;
  /** Median performance, and the rest of the run that scored it. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  benchmarkIndex: number;
  metrics: Record<string, string>;
  /** mainthread-work-breakdown and bootup-time of the median run, in ms (× 4, as simulated throttling counts them). */
  mainThreadMs?: number;
  scriptMs?: number;
  lost: { performance: LostAudit[]; accessibility: LostAudit[]; bestPractices: LostAudit[] };
  error?: string;
}

export interface LighthouseResult {
  chromePath: string;
  chromium: string;
  lighthouseVersion?: string;
  formFactor?: string;
  throttlingMethod?: string;
  runs: number;
  baseline: PageScores;
  pages: PageScores[];
}

function scoresOf(page: LighthousePage, lhrs: Result[], failedRuns: number, lastError: string): PageScores {
  if (lhrs.length === 0) {
    return {
      ...page,
      performanceRuns: [],
      failedRuns,
      performance: Number.NaN,
      accessibility: Number.NaN,
      bestPractices: Number.NaN,
      benchmarkIndex: Number.NaN,
      metrics: {},
      lost: { performance: [], accessibility: [], bestPractices: [] },
      error: lastError || "no run succeeded",
    };
  }
  const performance = lhrs.map((lhr) => lhr.categories.performance!.score ?? 0);
  const chosen = lhrs.find((lhr) => lhr.categories.performance!.score === median(performance))!;
  return {
    key: page.key,
    name: page.name,
    url: page.url,
    performanceRuns: performance,
    failedRuns,
    performance: median(performance),
    accessibility: chosen.categories.accessibility!.score ?? 0,
    bestPractices: chosen.categories["best-practices"]!.score ?? 0,
    benchmarkIndex: chosen.environment.benchmarkIndex,
    metrics: Object.fromEntries(
      Object.entries(METRICS).map(([id, label]) => [label, chosen.audits[id]?.displayValue ?? "—"]),
    ),
    mainThreadMs: chosen.audits["mainthread-work-breakdown"]?.numericValue,
    scriptMs: chosen.audits["bootup-time"]?.numericValue,
    lost: {
      performance: failedAudits(chosen, "performance"),
      accessibility: failedAudits(chosen, "accessibility"),
      bestPractices: failedAudits(chosen, "best-practices"),
    },
  };
}

/**
 * `runs` rounds; each round measures, for every page in turn, the baseline and then that page. A run that Lighthouse
 * reports as broken (e.g. NO_NAVSTART) is repeated, up to twice per run.
 */
export async function runLighthouse(
  baseline: LighthousePage,
  pages: LighthousePage[],
  { runs, log = console.log }: { runs: number; log?: (line: string) => void },
): Promise<LighthouseResult> {
  const chromePath = await chromiumPath();
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  const all = [baseline, ...pages];
  const lhrs = new Map(all.map((page) => [page.key, [] as Result[]]));
  const failures = new Map(all.map((page) => [page.key, 0]));
  const lastErrors = new Map<string, string>();
  const once = async (page: LighthousePage) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const flags: Flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES };
      if (page.cookie) flags.extraHeaders = { Cookie: page.cookie };
      try {
        const result = await lighthouse(page.url, flags);
        const lhr = result?.lhr;
        if (!lhr) throw new Error("Lighthouse returned no result");
        if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        lhrs.get(page.key)!.push(lhr);
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        lastErrors.set(page.key, message);
        failures.set(page.key, failures.get(page.key)! + 1);
        log(
          `  ${page.name}: Lighthouse run failed (${message.slice(0, 120)}); ${attempt < 2 ? "trying again" : "giving up on this run"}`,
        );
      }
    }
  };
  let settings: Pick<LighthouseResult, "lighthouseVersion" | "formFactor" | "throttlingMethod"> = {};
  try {
    for (let round = 0; round < runs; round++) {
      for (const page of pages) {
        await once(baseline);
        await once(page);
      }
      const line = all
        .map(
          (page) =>
            `${page.key} ${
              lhrs
                .get(page.key)!
                .map((lhr) => lhr.categories.performance!.score?.toFixed(2))
                .at(-1) ?? "—"
            }`,
        )
        .join(", ");
      log(`  round ${round + 1}/${runs}: ${line}`);
    }
    const first = [...lhrs.values()].flat()[0];
    if (first)
      settings = {
        lighthouseVersion: first.lighthouseVersion,
        formFactor: first.configSettings.formFactor,
        throttlingMethod: first.configSettings.throttlingMethod,
      };
  } finally {
    chrome.kill();
  }
  const scores = (page: LighthousePage) =>
    scoresOf(page, lhrs.get(page.key)!, failures.get(page.key)!, lastErrors.get(page.key) ?? "");
  return {
    chromePath,
    chromium: chromiumVersion(chromePath),
    ...settings,
    runs,
    baseline: scores(baseline),
    pages: pages.map(scores),
  };
}
