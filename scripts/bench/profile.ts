// Where a checkout's time goes, shop against baseline: every shop and the baseline app are restarted with a probe
// (scripts/bench/probe.mjs) and measured in two passes at the same emulator latency:
//   1. timing: per checkout, the server's time split into the two payment service calls (fetch), the database
//      (`pg` queries: the order store's work) and the rest (the app's and Next.js's own work on the CPU);
//   2. CPU: a sampling CPU profile of each server over `n` more checkouts, its self time attributed to source files
//      through the build's source maps (the shop's chunks, Next.js's runtime bundle), grouped by component.
// The probe adds a little time of its own; the budget measurements run without it.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  addToCart,
  findForm,
  getPage,
  isPaymentPage,
  loadCheckoutForm,
  submitCheckout,
  type CheckoutDetails,
} from "../no-js-shop";
import { freePort, ROOT, type RunningApp, type RunningEmulator } from "../servers";
import { mapLimit, summary, type Summary } from "./stats";

const PROBE = fileURLToPath(new URL("./probe.mjs", import.meta.url));

export interface ProbeRecord {
  method: string;
  url: string;
  status: number;
  totalMs: number;
  fetchMs: number;
  fetches: number;
  dbMs: number;
  queries: number;
}

export interface TimingSplit {
  key: string;
  name: string;
  n: number;
  /** Seen by the bench: request sent → 303 read. */
  clientMs: Summary;
  /** Seen by the server: request arrived → response finished. */
  serverMs: Summary;
  fetchMs: Summary;
  dbMs: Summary;
  /** serverMs − fetchMs − dbMs, per checkout. */
  restMs: Summary;
  fetches: number;
  queries: number;
}

export interface CpuGroup {
  component: string;
  msPerCheckout: number;
}

export interface CpuProfileSummary {
  key: string;
  name: string;
  checkouts: number;
  /** CPU time (every sample but idle) per checkout. */
  busyMsPerCheckout: number;
  groups: CpuGroup[];
  topFunctions: { name: string; source: string; msPerCheckout: number }[];
  /** The project's own functions by inclusive CPU time (their callees included). */
  projectInclusive: { label: string; msPerCheckout: number }[];
}

export interface CheckoutProfile {
  latencyMs: number;
  n: number;
  warmup: number;
  timing: TimingSplit[];
  cpu: CpuProfileSummary[];
}

export interface ProfiledApp {
  key: string;
  name: string;
  /** Whose checkout form is posted: the shop's (a session with a cart) or the baseline's (no session). */
  kind: "shop" | "baseline";
  /** Restarts the app with `NODE_OPTIONS` and `BENCH_PROBE_PORT` set; @returns the running app. */
  restart(env: Record<string, string>): Promise<RunningApp>;
}

async function probe<T>(port: number, pathname: string, method = "GET"): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`, { method });
  if (!response.ok) throw new Error(`probe ${pathname} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

// ─────────────────────────────────────── CPU profile → components ───────────────────────────────────────

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

const sourceMaps = new Map<string, SourceMap | null>();

/** The source map of a script file (`<file>.map` next to it), or null. */
function sourceMapOf(file: string): SourceMap | null {
  if (!sourceMaps.has(file)) {
    let map: SourceMap | null = null;
    try {
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  return sourceMaps.get(file)!;
}

/** The original source and name of a position, through the script's source map when it has one. */
function original(
  url: string,
  line: number,
  column: number,
): { file: string; source: string; name?: string; line?: number } {
  if (!url.startsWith("file://")) return { file: url, source: url };
  const file = fileURLToPath(url);
  const entry = sourceMapOf(file)?.findEntry(line, column) as
    { originalSource?: string; originalLine?: number; name?: string } | undefined;
  return { file, source: entry?.originalSource ?? file, name: entry?.name, line: entry?.originalLine };
}

const sourceLines = new Map<string, string[]>();

/** The lines of `source` as it was built: from the source map's `sourcesContent`, else from the file on disk. */
function linesOf(chunk: string, source: string): string[] {
  const key = `${chunk}|${source}`;
  if (!sourceLines.has(key)) {
    const payload = sourceMapOf(chunk)?.payload as
      | {
          sources?: string[];
          sourcesContent?: (string | null)[];
          sections?: { map: { sources?: string[]; sourcesContent?: (string | null)[] } }[];
        }
      | undefined;
    let content: string | null | undefined;
    for (const map of [payload, ...(payload?.sections ?? []).map((section) => section.map)]) {
      const index = map?.sources?.indexOf(source) ?? -1;
      if (index >= 0) content = map?.sourcesContent?.[index];
      if (content) break;
    }
    if (!content) {
      const file = /^\.\.?\//.test(source) ? path.resolve(path.dirname(chunk), source) : source;
      content = existsSync(file) ? readFileSync(file, "utf8") : "";
    }
    sourceLines.set(key, content.split("\n"));
  }
  return sourceLines.get(key)!;
}

/**
 * The name of the function that starts on `line` (0-based) of a source, read from the source itself: the build is
 * minified, so the profile's names are `t`, `s`, `r`….
 */
function functionNameAt(chunk: string, source: string, line: number | undefined): string | undefined {
  if (line === undefined) return undefined;
  const text = linesOf(chunk, source)[line] ?? "";
  return (
    text.match(/function\s*\*?\s*([A-Za-z_$][\w$]*)/)?.[1] ??
    text.match(/([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>/)?.[1] ??
    text.match(/^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{/)?.[1]
  );
}

const NATIVE: Record<string, string> = {
  "(garbage collector)": "V8: garbage collector",
  "(program)": "V8: native code, compiling (program)",
  runMicrotasks: "V8: promise jobs (runMicrotasks)",
  run: "V8: promise jobs (runMicrotasks)",
  writev: "Node.js: socket writes",
  writeBuffer: "Node.js: socket writes",
  writeUtf8String: "Node.js: socket writes",
  writeLatin1String: "Node.js: socket writes",
};

/** A component name for a position: what a reader would blame the time on. */
export function componentOf(file: string, source: string, functionName: string): string {
  if (!file) return NATIVE[functionName] ?? `V8/native: ${functionName || "?"}`;
  if (file.startsWith("node:")) {
    if (file.includes("deps/undici")) return "Node.js: fetch (undici)";
    if (/async_hooks/.test(file)) return "Node.js: async context (AsyncLocalStorage)";
    if (/_http_|internal\/http/.test(file)) return "Node.js: http";
    if (/stream|webstreams|js_transferable/.test(file)) return "Node.js: streams";
    if (/crypto/.test(file)) return "Node.js: crypto";
    if (/net|stream_base|tcp/.test(file)) return "Node.js: sockets";
    return `Node.js: ${file.replace(/^node:(internal\/)?/, "").split("/")[0]}`;
  }
  if (file.includes("bench/probe.mjs")) return "the bench's probe";
  const s = decodeURIComponent(source.replace(/\\/g, "/"));
  if (file.includes("/node_modules/next/")) {
    // Next.js's runtime bundle (app-page-turbo.runtime.prod.js) holds React's server renderer too.
    if (/compiled\/react-dom|compiled\/react-server-dom|compiled\/react\/|compiled\/react-is/.test(s))
      return "React (server rendering, Flight)";
    const compiled = s.match(/dist\/compiled\/(@[^/]+\/[^/]+|[^/]+)/);
    if (compiled) return `Next.js: bundled ${compiled[1]}`;
    if (s.includes("app-render")) return "Next.js: app render, server actions";
    return "Next.js: server, routing";
  }
  if (/\/node_modules\/pg[^/]*\//.test(file)) return "pg (driver)";
  // Code bundled into the app's own chunks, by original source.
  if (/compiled\/react-dom|compiled\/react-server-dom|compiled\/react\//.test(s))
    return "React (server rendering, Flight)";
  if (/node_modules\/next\//.test(s)) return "Next.js: bundled in the app";
  // drizzle-orm's source maps point one folder too high: node_modules/src/… is drizzle-orm/src/….
  if (/node_modules\/src\//.test(s)) return "drizzle-orm";
  const modulePath = s.match(/node_modules\/(@[^/]+\/[^/]+|[^/]+)/);
  if (modulePath) return modulePath[1]!;
  if (s.includes("[turbopack]") || s.includes("turbopack/")) return "Turbopack runtime";
  const project = projectPath(s);
  if (project) return `app code: ${project}`;
  return file.replace(`${ROOT}/`, "");
}

/** `lib/…`, `app/…`, `components/…`, `proxy.ts`, `instrumentation.ts` for a source of the project's own, else null. */
function projectPath(source: string): string | null {
  const project = source
    .replace(/^turbopack:\/\/\/\[project\]\//, "")
    .replace(/^(\.\.\/)+/, "")
    .replace(`${ROOT}/`, "");
  return /^(app|lib|components|i18n)\//.test(project) || /^(proxy|instrumentation)\.ts$/.test(project) ? project : null;
}

/** Self time per component and per function, and inclusive time per function of the project's, per checkout. */
function summariseProfile(profile: CpuProfile, checkouts: number): Omit<CpuProfileSummary, "key" | "name"> {
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length) / 1000; // ms per sample
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const groups = new Map<string, number>();
  const functions = new Map<string, { name: string; source: string; ms: number }>();
  const projectFunctions = new Map<number, string>(); // node id → "name (file:line)" for the project's own code
  let busy = 0;
  for (const node of profile.nodes) {
    const { url, lineNumber, columnNumber, functionName } = node.callFrame;
    const where = original(url, lineNumber, columnNumber);
    const project = where.file ? projectPath(decodeURIComponent(where.source)) : null;
    // The project's code is minified: a name not found in its source is an anonymous function's, not `ak` or `a.s.b`.
    const name = project
      ? (functionNameAt(where.file, where.source, where.line) ?? "(anonymous)")
      : where.name || functionName || "(anonymous)";
    if (project)
      projectFunctions.set(node.id, `${name} (${project}${where.line === undefined ? "" : `:${where.line + 1}`})`);
    const count = hits.get(node.id);
    if (!count || functionName === "(idle)") continue;
    const ms = count * interval;
    busy += ms;
    const component = componentOf(where.file, where.source, functionName);
    groups.set(component, (groups.get(component) ?? 0) + ms);
    const key = `${name}|${where.source}`;
    const entry = functions.get(key) ?? {
      name,
      source: decodeURIComponent(where.source)
        .replace(`${ROOT}/`, "")
        .replace(/^webpack:\/\/next\/\.\//, "next/")
        .replace(/^(\.\.\/)+/, ""),
      ms: 0,
    };
    entry.ms += ms;
    functions.set(key, entry);
  }
  // Inclusive time of the project's functions: every sample counts once for each of them on its stack.
  const inclusive = new Map<string, number>();
  for (const [id, count] of hits) {
    if (byId.get(id)?.callFrame.functionName === "(idle)") continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const label = projectFunctions.get(at);
      if (label && !seen.has(label)) {
        seen.add(label);
        inclusive.set(label, (inclusive.get(label) ?? 0) + count * interval);
      }
    }
  }
  return {
    checkouts,
    busyMsPerCheckout: busy / checkouts,
    groups: [...groups]
      .map(([component, ms]) => ({ component, msPerCheckout: ms / checkouts }))
      .sort((a, b) => b.msPerCheckout - a.msPerCheckout),
    topFunctions: [...functions.values()]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15)
      .map((entry) => ({ name: entry.name, source: entry.source, msPerCheckout: entry.ms / checkouts })),
    projectInclusive: [...inclusive]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([label, ms]) => ({ label, msPerCheckout: ms / checkouts })),
  };
}

// ───────────────────────────────────────────── the passes ─────────────────────────────────────────────

interface Prepared {
  app: ProfiledApp;
  running: RunningApp;
  probePort: number;
  /** One ready-to-post checkout per index. */
  forms: { cookie: string; hidden: [string, string][]; gateway: string }[];
}

async function prepareForms(app: ProfiledApp, running: RunningApp, count: number): Promise<Prepared["forms"]> {
  if (app.kind === "baseline") {
    const form = findForm(await getPage(`${running.url}/checkout`), "full_name");
    if (!form) throw new Error("the baseline page has no form");
    return Array.from({ length: count }, () => ({ cookie: "", hidden: form.hidden, gateway: "sadad" }));
  }
  return mapLimit(Array.from({ length: count }), 4, async () => {
    const cookie = await addToCart(running.url, { slug: "olive-oil", quantity: 1 });
    const { hidden, gateways } = await loadCheckoutForm(running.url, cookie);
    return { cookie, hidden, gateway: gateways[0]! };
  });
}

export async function profileCheckout({
  apps,
  emulator,
  latencyMs,
  n,
  warmup,
  log = console.log,
}: {
  apps: ProfiledApp[];
  emulator: RunningEmulator;
  latencyMs: number;
  n: number;
  warmup: number;
  log?: (line: string) => void;
}): Promise<CheckoutProfile> {
  const prepared: Prepared[] = [];
  for (const app of apps) {
    const probePort = await freePort();
    const running = await app.restart({ NODE_OPTIONS: `--import ${PROBE}`, BENCH_PROBE_PORT: String(probePort) });
    prepared.push({ app, running, probePort, forms: [] });
  }
  await emulator.control("/reset", {});
  await emulator.control("/config", { latencyMs, rateLimit: 0 });
  log(`  preparing ${2 * n + warmup} checkout forms per app (untimed)…`);
  for (const entry of prepared) entry.forms = await prepareForms(entry.app, entry.running, 2 * n + warmup);
  const run = Date.now().toString(36);
  const post = async (entry: Prepared, index: number) => {
    const form = entry.forms[index]!;
    const details: CheckoutDetails = {
      full_name: `Profile ${run} ${entry.app.key.slice(0, 12)} ${String(index).padStart(5, "0")}`,
      email: "bench@example.ly",
      phone: "0912345678",
      payment_gateway: form.gateway,
    };
    const started = performance.now();
    const result = await submitCheckout(entry.running.url, form.cookie, form.hidden, details);
    const elapsed = performance.now() - started;
    if (result.status !== 303 || !isPaymentPage(result.location, emulator.url))
      throw new Error(`${entry.app.name}: checkout answered ${result.status} ${result.location ?? ""}`);
    return elapsed;
  };

  // 1. Timing split.
  for (const entry of prepared) await probe(entry.probePort, "/records"); // forget the preparation's requests
  const client = new Map(prepared.map((entry) => [entry.app.key, [] as number[]]));
  for (let index = 0; index < n + warmup; index++) {
    for (let step = 0; step < prepared.length; step++) {
      const entry = prepared[(index + step) % prepared.length]!;
      const elapsed = await post(entry, index);
      if (index >= warmup) client.get(entry.app.key)!.push(elapsed);
    }
  }
  const timing: TimingSplit[] = [];
  for (const entry of prepared) {
    const records = (await probe<ProbeRecord[]>(entry.probePort, "/records"))
      .filter((record) => record.method === "POST" && record.status === 303)
      .slice(warmup);
    if (records.length === 0)
      throw new Error(`${entry.app.name}: the probe recorded no checkout (is NODE_OPTIONS reaching the server?)`);
    timing.push({
      key: entry.app.key,
      name: entry.app.name,
      n: records.length,
      clientMs: summary(client.get(entry.app.key)!),
      serverMs: summary(records.map((record) => record.totalMs)),
      fetchMs: summary(records.map((record) => record.fetchMs)),
      dbMs: summary(records.map((record) => record.dbMs)),
      restMs: summary(records.map((record) => record.totalMs - record.fetchMs - record.dbMs)),
      fetches: records.reduce((total, record) => total + record.fetches, 0) / records.length,
      queries: records.reduce((total, record) => total + record.queries, 0) / records.length,
    });
    const t = timing.at(-1)!;
    log(
      `  ${entry.app.name.padEnd(34)} server p50 ${t.serverMs.p50.toFixed(1)} ms = fetch ${t.fetchMs.p50.toFixed(1)} (${t.fetches} calls) + db ${t.dbMs.p50.toFixed(1)} (${t.queries.toFixed(1)} queries) + rest ${t.restMs.p50.toFixed(1)}`,
    );
  }

  // 2. CPU profiles, over n more checkouts each (the same alternation).
  for (const entry of prepared) await probe(entry.probePort, "/profile/start", "POST");
  for (let index = n + warmup; index < 2 * n + warmup; index++) {
    for (let step = 0; step < prepared.length; step++) await post(prepared[(index + step) % prepared.length]!, index);
  }
  const cpu: CpuProfileSummary[] = [];
  for (const entry of prepared) {
    const profile = await probe<CpuProfile>(entry.probePort, "/profile/stop", "POST");
    cpu.push({ key: entry.app.key, name: entry.app.name, ...summariseProfile(profile, n) });
    const c = cpu.at(-1)!;
    log(
      `  ${entry.app.name.padEnd(34)} CPU ${c.busyMsPerCheckout.toFixed(1)} ms a checkout; ${c.groups
        .slice(0, 4)
        .map((group) => `${group.component} ${group.msPerCheckout.toFixed(1)}`)
        .join(", ")}`,
    );
  }
  await emulator.control("/config", { latencyMs: 0 });
  return { latencyMs, n, warmup, timing, cpu };
}
