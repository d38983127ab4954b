// docs/benchmarks.md: the machine, one table per measurement, and the budgets with whether each was met.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { GZIP_LEVEL, JS_BUDGET_BYTES, kb } from "../page-weight.ts";
import { LATENCY_RATIO_BUDGET } from "./checkout-latency.mjs";
import { PERFORMANCE_BUDGET, QUALITY_PAGES, QUALITY_TARGET } from "./lighthouse.mjs";

const versionOf = (name) => {
  try {
    return JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;
  } catch {
    return "not installed";
  }
};

function osName() {
  try {
    const pretty = readFileSync("/etc/os-release", "utf8").match(/^PRETTY_NAME="?([^"\n]*)"?/m)?.[1];
    return `${pretty ?? os.type()}, ${os.type()} ${os.release()} ${os.arch()}`;
  } catch {
    return `${os.type()} ${os.release()} ${os.arch()}`;
  }
}

/** The commit the working tree is on, and what differs from it (tracked files changed, files not in git yet). */
export function gitState() {
  const git = (...args) => spawnSync("git", args, { encoding: "utf8" }).stdout?.trim() ?? "";
  const head = git("rev-parse", "--short", "HEAD");
  if (!head) return "unknown";
  const lines = git("status", "--porcelain").split("\n").filter(Boolean);
  const untracked = lines.filter((line) => line.startsWith("??")).length;
  const changed = lines.length - untracked;
  const parts = [changed && `${changed} changed tracked file${changed === 1 ? "" : "s"}`, untracked && `${untracked} untracked`].filter(Boolean);
  return parts.length ? `${head} + ${parts.join(", ")} (working tree as built)` : head;
}

/** The machine and software the figures come from. */
export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryGiB: os.totalmem() / 1024 ** 3,
    os: osName(),
    node: process.version,
    next: versionOf("next"),
    react: versionOf("react"),
    reactDom: versionOf("react-dom"),
    autocannon: versionOf("autocannon"),
    lighthouse: versionOf("lighthouse"),
    source: gitState(),
    loadAtStart: os.loadavg(),
    date: new Date().toISOString(),
  };
}

const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "—");
const score = (value) => (typeof value === "number" ? value.toFixed(2) : "—");
const yes = (met) => (met === undefined ? "—" : met ? "✅ met" : "❌ missed");
const row = (cells) => `| ${cells.join(" | ")} |`;
const table = (head, rows) => [row(head), row(head.map(() => "---")), ...rows.map(row)].join("\n");
const failed = (section) => `**Not measured: ${section.error}**`;

/**
 * The budgets of this run, each `{ name, target, measured, met, enforced }`. `enforced` budgets decide
 * `--check`; the others (another issue's targets) are reported only.
 */
export function budgets(results) {
  const list = [];
  const { latency, throughput, weights, lighthouse } = results;

  list.push({
    name: "Checkout latency",
    target: `checkout p50 ≤ ${LATENCY_RATIO_BUDGET.toFixed(2)} × floor p50`,
    measured: latency.ok ? `${latency.value.ratio.toFixed(3)} (${ms(latency.value.checkout.p50)} / ${ms(latency.value.floor.p50)})` : latency.error,
    met: latency.ok ? latency.value.ratio <= LATENCY_RATIO_BUDGET && latency.value.paymentsCreatedByCheckouts === latency.value.checkoutsSubmitted : false,
    enforced: true,
  });

  const clean = (run) => run.errors === 0 && run.timeouts === 0 && run.notTwoOrThreeHundred === 0;
  list.push({
    name: "Throughput runs are clean",
    target: "0 errors, 0 timeouts, 0 non-2xx/3xx; every checkout 303 goes to the payment page",
    measured: throughput.ok
      ? `checkout: ${throughput.value.checkout.errors} errors, ${throughput.value.checkout.notTwoOrThreeHundred} non-2xx/3xx, ${throughput.value.checkout.otherRedirects} other redirects; home: ${throughput.value.home.errors} errors, ${throughput.value.home.notTwoOrThreeHundred} non-2xx/3xx`
      : throughput.error,
    met: throughput.ok ? clean(throughput.value.checkout) && throughput.value.checkout.otherRedirects === 0 && clean(throughput.value.home) : false,
    enforced: true,
  });

  if (weights.ok) {
    const budgeted = weights.value.filter((page) => page.budgeted);
    const over = budgeted.filter((page) => page.js.gzip > JS_BUDGET_BYTES);
    const worst = budgeted.reduce((a, b) => (b.js.gzip > a.js.gzip ? b : a));
    list.push({
      name: "Page weight",
      target: `≤ ${kb(JS_BUDGET_BYTES)} gzipped JS on every page`,
      measured: over.length ? `over: ${over.map((page) => `${page.name} ${kb(page.js.gzip)}`).join(", ")}` : `largest: ${worst.name} ${kb(worst.js.gzip)}`,
      met: over.length === 0,
      enforced: true,
    });
  } else list.push({ name: "Page weight", target: `≤ ${kb(JS_BUDGET_BYTES)} gzipped JS on every page`, measured: weights.error, met: false, enforced: true });

  if (lighthouse.ok) {
    const pages = lighthouse.value.pages;
    // A page Lighthouse could not measure counts as below every target: nothing shows it is met.
    const below = (key, target, subset = pages) => subset.filter((page) => page.error || page[key] < target);
    const describe = (list, key) => list.map((page) => `${page.name} ${page.error ? "not measured" : score(page[key])}`).join(", ");
    const lowPerf = below("performance", PERFORMANCE_BUDGET);
    list.push({
      name: "Lighthouse performance (mobile)",
      target: `≥ ${PERFORMANCE_BUDGET} on every page`,
      measured: lowPerf.length ? `below: ${describe(lowPerf, "performance")}` : `lowest ${score(Math.min(...pages.map((page) => page.performance)))}`,
      met: lowPerf.length === 0,
      enforced: true,
    });
    const subset = pages.filter((page) => QUALITY_PAGES.includes(page.key));
    for (const [key, label] of [
      ["accessibility", "Lighthouse accessibility"],
      ["bestPractices", "Lighthouse best practices"],
    ]) {
      const low = below(key, QUALITY_TARGET, subset);
      list.push({
        name: `${label} (another issue's target)`,
        target: `≥ ${QUALITY_TARGET} on ${QUALITY_PAGES.join(", ")}`,
        measured: low.length ? `below: ${describe(low, key)}` : `lowest ${score(Math.min(...subset.map((page) => page[key])))}`,
        met: low.length === 0,
        enforced: false,
      });
    }
  } else list.push({ name: "Lighthouse performance (mobile)", target: `≥ ${PERFORMANCE_BUDGET} on every page`, measured: lighthouse.error, met: false, enforced: true });

  return list;
}

function latencySection({ latency }, settings) {
  const lines = ["## 1. Checkout latency", ""];
  lines.push(
    `The real checkout form posted the way a browser **without JavaScript** posts it: the checkout page's form (with its hidden \`$ACTION_…\` inputs) as \`multipart/form-data\` plus \`full_name\`, \`email\`, \`phone\` and \`payment_gateway\`, following no redirect; success is 303 to the emulator's payment page. Every checkout uses a fresh session (one product in the cart, made untimed through the product page's add-to-cart form) and a unique \`full_name\`, so none resumes a pending payment and each makes its two API calls. The **floor** is the same two calls (\`POST {base}/authentication/token\`, then \`POST {base}/payment/create\` with the body the shop sent, read back from the emulator) made directly with \`fetch\` from the bench process. Checkouts and floor iterations alternate, sequentially, one at a time; the emulator adds **${settings.latencyMs} ms** to every token and create call.`,
    "",
  );
  if (!latency.ok) return [...lines, failed(latency), ""].join("\n");
  const l = latency.value;
  lines.push(
    table(
      ["", "n", "p50", "p95", "mean", "min", "max"],
      [
        ["Checkout (no-JS form post → 303)", l.checkout.n, ms(l.checkout.p50), ms(l.checkout.p95), ms(l.checkout.mean), ms(l.checkout.min), ms(l.checkout.max)],
        ["Floor (token + create with fetch)", l.floor.n, ms(l.floor.p50), ms(l.floor.p95), ms(l.floor.mean), ms(l.floor.min), ms(l.floor.max)],
        ["**Ratio** checkout / floor", "", `**${l.ratio.toFixed(3)}**`, l.ratioP95.toFixed(3), "", "", ""],
        ["Overhead checkout − floor", "", ms(l.checkout.p50 - l.floor.p50), ms(l.checkout.p95 - l.floor.p95), "", "", ""],
      ],
    ),
    "",
    `${l.warmup} untimed warm-up pairs first. Payments the emulator holds from these checkouts: ${l.paymentsCreatedByCheckouts} of ${l.checkoutsSubmitted} submitted (each checkout created its own). Create body keys: \`${l.shape.join("`, `")}\`.`,
    "",
  );
  return lines.join("\n");
}

function throughputSection({ throughput }, settings) {
  const lines = ["## 2. Throughput", ""];
  lines.push(
    `autocannon ${versionOf("autocannon")}, ${settings.connections} connections, ${settings.durationSec} s each, emulator latency 0 ms. **Checkout**: every request is a real no-JS checkout (multipart form post with the form's hidden inputs, a unique \`full_name\`, and a cookie from a pool of ${settings.poolSize} sessions with a cart); a 303 counts as a checkout only when its Location is the payment page. **Home**: \`GET /\` without a cookie. Latency includes every response (autocannon's default). The load generator, the shop and the emulator share the machine's cores.`,
    "",
  );
  if (!throughput.ok) return [...lines, failed(throughput), ""].join("\n");
  const { checkout: c, home: h } = throughput.value;
  const codes = (run) => Object.entries(run.statusCodes).map(([code, count]) => `${code}: ${count}`).join(", ") || "none";
  lines.push(
    table(
      ["", "req/s", "checkouts/s", "p50", "p99", "max", "requests", "errors", "timeouts", "non-2xx/3xx", "status codes"],
      [
        ["Checkout `POST /checkout`", c.requestsPerSec.toFixed(1), c.checkoutsPerSec.toFixed(1), `${c.latency.p50} ms`, `${c.latency.p99} ms`, `${c.latency.max} ms`, c.completed, c.errors, c.timeouts, c.notTwoOrThreeHundred, codes(c)],
        ["Home `GET /`", h.requestsPerSec.toFixed(1), "—", `${h.latency.p50} ms`, `${h.latency.p99} ms`, `${h.latency.max} ms`, h.completed, h.errors, h.timeouts, h.notTwoOrThreeHundred, codes(h)],
      ],
    ),
    "",
    `Checkout: ${c.toPaymentPage} redirects to the payment page, ${c.otherRedirects} other redirects; the emulator holds ${c.paymentsCreated} payments from this run (requests still in flight when autocannon stopped may add a few).`,
    "",
  );
  return lines.join("\n");
}

function weightSection({ weights }) {
  const lines = ["## 3. Page weight", ""];
  lines.push(
    `What a modern browser downloads: the page's HTML (with its inline RSC payload), every \`<script src>\` except \`<script noModule>\`, every \`<link rel="modulepreload">\` / \`<link rel="preload" as="script">\`, and every \`<link rel="stylesheet">\` / \`preload as="style"\` in the HTML or the \`Link\` header, each URL once, each file gzipped on its own with **zlib level ${GZIP_LEVEL}** (\`next start\` compresses at zlib's default level 6, a few per cent larger). Images and fonts are not counted. The 404 page (\`/this-page-does-not-exist\`) is the bare app shell: "vs shell" is what a page adds to it. Cart and checkout carry olive oil × 2 and saffron × 1; the order page is a paid order (checkout → Pay on the emulator → return URL). Same code as \`e2e/page-weight.spec.ts\` (\`scripts/page-weight.mjs\`).`,
    "",
  );
  if (!weights.ok) return [...lines, failed(weights), ""].join("\n");
  const pages = weights.value;
  const shell = pages.find((page) => page.key === "shell");
  const shellFiles = new Set(shell?.js.files.map((file) => file.url));
  const delta = (page) => (shell && page !== shell ? `${page.js.gzip >= shell.js.gzip ? "+" : "−"}${kb(Math.abs(page.js.gzip - shell.js.gzip))}` : "baseline");
  const extra = (page) =>
    page === shell
      ? "—"
      : page.js.files
          .filter((file) => !shellFiles.has(file.url))
          .map((file) => `\`${file.url.split("/").pop()}\` ${kb(file.gzip)}`)
          .join(", ") || "none";
  lines.push(
    table(
      ["Page", "Status", "JS gz", "JS files", "JS vs shell", "CSS gz", "HTML gz", "Total gz", "JS raw", `JS ≤ ${kb(JS_BUDGET_BYTES)}`, "JS files not in the shell"],
      pages.map((page) => [
        `${page.name} \`${page.path.replace(/\?.*$/, "").replace(/ord_[0-9a-z]+/, "<id>")}\``,
        page.status,
        `**${kb(page.js.gzip)}**`,
        page.js.files.length,
        delta(page),
        kb(page.css.gzip),
        kb(page.html.gzip),
        kb(page.totalGzip),
        kb(page.js.bytes),
        page.budgeted ? yes(page.js.gzip <= JS_BUDGET_BYTES) : "(baseline)",
        extra(page),
      ]),
    ),
    "",
  );
  return lines.join("\n");
}

function lighthouseSection({ lighthouse }, settings) {
  const lines = ["## 4. Lighthouse", ""];
  const v = lighthouse.ok ? lighthouse.value : {};
  lines.push(
    `Lighthouse ${v.lighthouseVersion ?? versionOf("lighthouse")}, default profile: form factor \`${v.formFactor ?? "mobile"}\`, throttling \`${v.throttlingMethod ?? "simulate"}\`; categories performance, accessibility, best practices. ${v.chromium ?? "Chromium"} (\`${v.chromePath ?? "?"}\`) launched by chrome-launcher with \`--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic\`. Pages with a cart or an order get the session cookie through \`extraHeaders\`. ${settings.runs} run${settings.runs === 1 ? "" : "s"} per page; the table shows the run with the median performance score (all performance scores in brackets). Simulated throttling scales the CPU time measured here by 4, so a busy 2-core machine moves TBT and the performance score from run to run. "Benchmark index" is Lighthouse's own measure of this machine's CPU (\`environment.benchmarkIndex\`) in the median run. The 404 shell cannot be measured: Lighthouse refuses a page that answers 404 (\`ERRORED_DOCUMENT_REQUEST\`).`,
    "",
  );
  if (!lighthouse.ok) return [...lines, failed(lighthouse), ""].join("\n");
  lines.push(
    table(
      ["Page", "Performance", "Accessibility", "Best practices", "FCP", "LCP", "TBT", "CLS", "SI", "Benchmark index"],
      v.pages.map((page) =>
        page.error
          ? [page.name, `**not measured**: ${page.error.slice(0, 160)}`, "—", "—", "—", "—", "—", "—", "—", "—"]
          : [
        page.name,
        `**${score(page.performance)}** (${page.performanceRuns.map(score).join(", ")}${page.failedRuns ? `; ${page.failedRuns} run(s) failed` : ""})`,
        score(page.accessibility),
        score(page.bestPractices),
        page.metrics.FCP,
        page.metrics.LCP,
        page.metrics.TBT,
        page.metrics.CLS,
        page.metrics.SI,
        Math.round(page.benchmarkIndex),
            ],
      ),
    ),
    "",
    `Budget: performance ≥ ${PERFORMANCE_BUDGET} on every page. Another issue's target: accessibility and best practices ≥ ${QUALITY_TARGET} on ${QUALITY_PAGES.join(", ")}.`,
    "",
    "Audits that lost points (median run; performance: the five worst):",
    "",
  );
  const audits = (list, limit = list.length) =>
    list
      .slice(0, limit)
      .map((audit) => `\`${audit.id}\` ${score(audit.score)}${audit.value ? ` (${audit.value})` : ""}`)
      .join(", ") || "none";
  for (const page of v.pages.filter((page) => !page.error)) {
    lines.push(
      `- **${page.name}** — performance: ${audits(page.lost.performance, 5)}; accessibility: ${audits(page.lost.accessibility)}; best practices: ${audits(page.lost.bestPractices)}`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

function emulatorSection({ emulator }) {
  const lines = ["## 5. Emulator", ""];
  lines.push(
    "`node --expose-gc --import tsx scripts/bench/emulator.ts --pairs N --json`: token + create pairs in-process through `app.request` (no network), 8 in flight, the emulator clock moved 120 s every 1 000 pairs so expired tokens and payments are purged; memory after a forced GC.",
    "",
  );
  if (!emulator.ok) return [...lines, failed(emulator), ""].join("\n");
  const e = emulator.value;
  lines.push(
    table(
      ["Pairs", "Pairs/s (average so far)", "heapUsed", "RSS", "Alive payments", "Alive tokens"],
      e.checkpoints.map((c) => [c.pairs, c.pairsPerSecond, `${c.heapUsedMB.toFixed(1)} MB`, `${c.rssMB.toFixed(1)} MB`, c.payments, c.tokens]),
    ),
    "",
    `Total: **${e.pairsPerSecond} pairs/s** over ${(e.elapsedMs / 1000).toFixed(1)} s, concurrency ${e.concurrency}, forced GC: ${e.gcForced ? "yes" : "no"}, clock advanced ${e.clockAdvancedSeconds} s.`,
    "",
  );
  return lines.join("\n");
}

/** The whole document. */
export function renderReport(results, settings) {
  const m = results.machine;
  const list = budgets(results);
  const lines = [
    "# Benchmarks",
    "",
    `Generated by \`npm run bench\` (\`scripts/bench.mjs\`${settings.quick ? " --quick" : ""}); do not edit by hand. One run on one machine: compare runs only from the same machine.`,
    "",
  ];
  if (settings.quick) lines.push("> **Quick run** (`--quick`): small samples and short durations, for trying the bench out. Not for comparison.", "");
  lines.push(
    "## Machine",
    "",
    table(
      ["", ""],
      [
        ["CPU", `${m.cpu}, ${m.cores} cores`],
        ["Memory", `${m.memoryGiB.toFixed(1)} GiB`],
        ["OS", m.os],
        ["Node.js", m.node],
        ["next / react / react-dom", `${m.next} / ${m.react} / ${m.reactDom}`],
        ["autocannon / lighthouse", `${m.autocannon} / ${m.lighthouse}`],
        ["Source", m.source],
        ["Date", m.date],
        ["Bench duration", `${(results.elapsedMs / 1000).toFixed(0)} s`],
        ["Load average at start (1 / 5 / 15 min)", m.loadAtStart.map((load) => load.toFixed(2)).join(" / ")],
        ["Load average (1 min) after each step", Object.entries(results.loadAfter ?? {}).map(([step, load]) => `${step} ${load.toFixed(2)}`).join(", ") || "—"],
      ],
    ),
    "",
    `The shop runs \`next start\` on the production build in \`.next-bench/\` (port 3200), the emulator \`tsx emulator/server.ts\` (port 4210, rate limit off), \`LOG_LEVEL=warn\`. Shop, emulator, load generator and browser share the same ${m.cores} cores.`,
    "",
    "## Budgets",
    "",
    table(
      ["Budget", "Target", "Measured", "Result"],
      list.map((budget) => [budget.enforced ? budget.name : `${budget.name} ¹`, budget.target, budget.measured, yes(budget.met)]),
    ),
    "",
    "¹ Reported only; `npm run bench -- --check` fails on the other rows.",
    "",
    latencySection(results, settings.latency),
    throughputSection(results, settings.throughput),
    weightSection(results),
    lighthouseSection(results, settings.lighthouse),
    emulatorSection(results),
  );
  return { markdown: lines.join("\n"), budgets: list };
}
