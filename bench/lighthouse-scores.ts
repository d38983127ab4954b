// The Lighthouse budget, the shape of its results and the browser it runs in, apart from the runner
// (bench/lighthouse.ts), which needs the bench's own packages (bench/package.json): the report, its unit tests and
// bench/run.ts's checks before a run read these on a plain `npm install`.
import { existsSync } from "node:fs";

/** Budget: every shop page's median performance ≥ the baseline's median − 0.03. */
export const PERFORMANCE_MARGIN = 0.03;

export interface LighthousePage {
  key: string;
  name: string;
  url: string;
  cookie?: string;
}

/** A page's median performance over its runs, and the other scores and metrics of the run that scored it. */
export interface PageScores {
  key: string;
  name: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Largest Contentful Paint and Total Blocking Time as Lighthouse shows them ("1.6 s", "40 ms"). */
  lcp: string;
  tbt: string;
}

export interface LighthouseResult {
  runs: number;
  baseline: PageScores;
  pages: PageScores[];
}

/** What bench/lighthouse.ts exports, typed here so that bench/run.ts can load it without the root typecheck seeing it. */
export type RunLighthouse = (
  baseline: LighthousePage,
  pages: LighthousePage[],
  options: { runs: number; log?: (line: string) => void },
) => Promise<LighthouseResult>;

/**
 * The Chromium Lighthouse runs in: CHROMIUM_PATH if set, else Playwright's own chromium if installed, else Debian's
 * full browser. Not the browser tests' headless shell (playwright.config.ts): Lighthouse needs the new headless mode,
 * and on the old one it scored the same pages 0.06–0.1 lower.
 * @throws when there is none, saying how to get one — before a run, not 15 minutes into it (bench/run.ts).
 */
export async function lighthouseBrowser(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    const { chromium } = await import("@playwright/test");
    if (existsSync(chromium.executablePath())) return chromium.executablePath();
  } catch {
    // no Playwright: fall through
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  throw new Error(
    `Lighthouse needs a full Chromium, and there is none: install Debian's (\`apt-get install chromium\`, ${DEBIAN_CHROMIUM}) ` +
      "or Playwright's (`npx playwright install chromium`), or set CHROMIUM_PATH. The browser tests' headless shell is not enough.",
  );
}

const DEBIAN_CHROMIUM = "/usr/bin/chromium";
