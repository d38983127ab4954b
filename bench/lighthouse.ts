// Lighthouse in its default mobile profile (form factor "mobile", simulated throttling) on Debian's chromium,
// launched by chrome-launcher (a lighthouse dependency). Absolute scores on 2 busy cores move from run to run, so
// every shop page is compared with the baseline app's page measured in the same run, interleaved:
// baseline, home, baseline, product, … — five rounds; each page's median against the median of every baseline run.
//
// The one module of the bench that needs the bench's own packages (bench/package.json). bench/run.ts loads it by a
// path the root typecheck does not follow (a plain `npm install` has no Lighthouse); bench/tsconfig.json checks it.
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags, type Result } from "lighthouse";
import { lighthouseBrowser, type LighthousePage, type PageScores, type RunLighthouse } from "./lighthouse-scores";
import { median } from "./stats";

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

function scoresOf(page: LighthousePage, lhrs: Result[]): PageScores {
  if (lhrs.length === 0) throw new Error(`Lighthouse could not measure ${page.name} (${page.url}) in any run`);
  const performance = lhrs.map((lhr) => lhr.categories.performance!.score ?? 0);
  const chosen = lhrs.find((lhr) => lhr.categories.performance!.score === median(performance))!;
  return {
    key: page.key,
    name: page.name,
    performance: median(performance),
    accessibility: chosen.categories.accessibility!.score ?? 0,
    bestPractices: chosen.categories["best-practices"]!.score ?? 0,
    lcp: chosen.audits["largest-contentful-paint"]?.displayValue ?? "—",
    tbt: chosen.audits["total-blocking-time"]?.displayValue ?? "—",
  };
}

/**
 * `runs` rounds; each round measures, for every page in turn, the baseline and then that page. A run that Lighthouse
 * reports as broken (e.g. NO_NAVSTART) is tried again, up to twice.
 * @throws when a page has no successful run at all.
 */
export const runLighthouse: RunLighthouse = async (baseline, pages, { runs, log = console.log }) => {
  const chrome = await chromeLauncher.launch({
    chromePath: await lighthouseBrowser(),
    chromeFlags: CHROME_FLAGS,
    logLevel: "silent",
  });
  const lhrs = new Map([baseline, ...pages].map((page) => [page.key, [] as Result[]]));
  const once = async (page: LighthousePage) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const flags: Flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES };
      if (page.cookie) flags.extraHeaders = { Cookie: page.cookie };
      try {
        const lhr = (await lighthouse(page.url, flags))?.lhr;
        if (!lhr) throw new Error("Lighthouse returned no result");
        if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        lhrs.get(page.key)!.push(lhr);
        return;
      } catch (error) {
        log(`  ${page.name}: Lighthouse run failed (${String(error).slice(0, 120)})${attempt < 2 ? "; again" : ""}`);
      }
    }
  };
  try {
    for (let round = 0; round < runs; round++) {
      for (const page of pages) {
        await once(baseline);
        await once(page);
      }
      const last = (key: string) => lhrs.get(key)!.at(-1)?.categories.performance!.score?.toFixed(2) ?? "—";
      const scores = [baseline, ...pages].map((page) => `${page.key} ${last(page.key)}`);
      log(`  round ${round + 1}/${runs}: ${scores.join(", ")}`);
    }
  } finally {
    chrome.kill();
  }
  return {
    runs,
    baseline: scoresOf(baseline, lhrs.get(baseline.key)!),
    pages: pages.map((page) => scoresOf(page, lhrs.get(page.key)!)),
  };
};
