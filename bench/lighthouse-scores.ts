// The Lighthouse budget and the shape of its results, apart from the runner (bench/lighthouse.ts), which needs the
// bench's own packages (bench/package.json): the report and its unit tests read these on a plain `npm install`.

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
