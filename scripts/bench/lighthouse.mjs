// Lighthouse in its default mobile profile (formFactor "mobile", simulated throttling) on Debian's chromium, launched
// by chrome-launcher (a lighthouse dependency). Pages with a cart get the session cookie as an extra header.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { median } from "./stats.mjs";

export const PERFORMANCE_BUDGET = 0.95;
/** What another issue wants for accessibility and best practices on home, product, cart and checkout. */
export const QUALITY_TARGET = 0.95;
export const QUALITY_PAGES = ["home", "product", "cart", "checkout"];

const CHROME_FLAGS = [
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
const METRICS = {
  "first-contentful-paint": "FCP",
  "largest-contentful-paint": "LCP",
  "total-blocking-time": "TBT",
  "cumulative-layout-shift": "CLS",
  "speed-index": "SI",
};

/** CHROMIUM_PATH if set, else Playwright's own chromium if installed, else Debian's (as playwright.config.ts does). */
export async function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    const { chromium } = await import("playwright-core");
    if (existsSync(chromium.executablePath())) return chromium.executablePath();
  } catch {
    // no Playwright: fall through
  }
  return "/usr/bin/chromium";
}

/** `Chromium 156.0.… built on Debian …` or the path when the binary does not say. */
export function chromiumVersion(path) {
  const { stdout } = spawnSync(path, ["--version"], { encoding: "utf8" });
  return stdout?.trim().split("\n").pop() || path;
}

/** The first two detail items of an audit in a few words (console errors, inspector issues, failing nodes). */
function itemSummary(audit) {
  const items = audit.details?.items ?? [];
  const describe = (item) => {
    const url = item.sourceLocation?.url ?? item.url;
    if (item.description) return `${item.description}${url ? ` ${url}` : ""}`;
    if (item.issueType) return `${item.issueType}${item.subItems?.items?.length ? `: ${JSON.stringify(item.subItems.items[0]).slice(0, 160)}` : ""}`;
    if (item.node?.snippet) return item.node.snippet.slice(0, 120);
    return "";
  };
  return items.slice(0, 2).map(describe).filter(Boolean).join("; ");
}

/** Audits of `category` that lost points, as `id (score)`, worst first. */
function failedAudits(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "informative" && audit.scoreDisplayMode !== "manual")
    .sort((a, b) => a.score - b.score)
    .map((audit) => ({ id: audit.id, score: audit.score, value: audit.displayValue || itemSummary(audit) }));
}

/**
 * Runs Lighthouse `runs` times on every page; reports the median performance score (and the metrics of the run that
 * scored it) and the accessibility / best-practices scores of that run.
 * @param pages `[{ key, name, url, cookie }]`
 */
export async function runLighthouse(pages, { runs, log = console.log }) {
  const chromePath = await chromiumPath();
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  const results = [];
  let settings = {};
  try {
    for (const page of pages) {
      const lhrs = [];
      let lastError = "";
      // A run that Lighthouse itself reports as broken (e.g. NO_NAVSTART: the trace missed the navigation) is
      // repeated, up to `runs` extra attempts per page.
      for (let attempt = 0; lhrs.length < runs && attempt < runs * 2; attempt++) {
        const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES };
        if (page.cookie) flags.extraHeaders = { Cookie: page.cookie };
        try {
          const { lhr } = await lighthouse(page.url, flags);
          if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
          lhrs.push(lhr);
        } catch (error) {
          lastError = error instanceof Error ? error.message : String(error);
          log(`  ${page.name}: Lighthouse run failed (${lastError.slice(0, 120)}); trying again`);
        }
      }
      if (lhrs.length === 0) {
        results.push({ key: page.key, name: page.name, url: page.url, error: lastError });
        continue;
      }
      settings = {
        lighthouseVersion: lhrs[0].lighthouseVersion,
        formFactor: lhrs[0].configSettings.formFactor,
        throttlingMethod: lhrs[0].configSettings.throttlingMethod,
        userAgent: lhrs[0].environment.hostUserAgent,
      };
      const performance = lhrs.map((lhr) => lhr.categories.performance.score);
      const chosen = lhrs.find((lhr) => lhr.categories.performance.score === median(performance));
      const result = {
        key: page.key,
        name: page.name,
        url: page.url,
        performanceRuns: performance,
        failedRuns: lhrs.length < runs ? runs - lhrs.length : 0,
        performance: chosen.categories.performance.score,
        accessibility: chosen.categories.accessibility.score,
        bestPractices: chosen.categories["best-practices"].score,
        benchmarkIndex: chosen.environment.benchmarkIndex,
        metrics: Object.fromEntries(Object.entries(METRICS).map(([id, label]) => [label, chosen.audits[id].displayValue])),
        lost: {
          performance: failedAudits(chosen, "performance"),
          accessibility: failedAudits(chosen, "accessibility"),
          bestPractices: failedAudits(chosen, "best-practices"),
        },
        warnings: chosen.runWarnings,
      };
      log(`  ${page.name.padEnd(26)} performance ${performance.join(" / ")}  accessibility ${result.accessibility}  best practices ${result.bestPractices}`);
      results.push(result);
    }
  } finally {
    chrome.kill();
  }
  return { chromePath, chromium: chromiumVersion(chromePath), ...settings, runs, pages: results };
}
