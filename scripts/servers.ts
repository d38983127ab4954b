// The project's processes, started the same way by the benchmarks (scripts/bench.ts) and the tests
// (lib/testing/emulator.ts, e2e/instances.spec.ts): the payment service emulator, the embedded PostgreSQL, the
// migrations, an admin account, and `next start` of the shop (or of another Next.js app, such as the bench's
// baseline).
//
// Every child runs in its own process group and is stopped with its whole group: SIGTERM, then SIGKILL after a
// grace period. `stopAll()` stops everything this process started; `killAllNow()` is the synchronous last resort
// for `process.on("exit")`. Nothing here stops a process it did not start.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { connect, createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder (commands run there, whatever the caller's working directory). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Where a child's stdout and stderr go: nowhere, the parent's, only stderr to the parent's, or a log file. */
export type Output = "ignore" | "inherit" | "stderr" | { file: string };

/** A started process: its group is stopped by {@link Started.stop} or {@link stopAll}. */
export interface Started {
  name: string;
  child: ChildProcess;
  /** SIGTERM to the process group, SIGKILL after `graceMs` (default 5 s); resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Started>();
let exitHookInstalled = false;

const exitedAlready = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}

/** Starts `command args` in a process group of its own, in {@link ROOT} unless `cwd` says otherwise. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  { env = {}, output = "ignore", cwd = ROOT, stdin = "ignore" }: { env?: Record<string, string | undefined>; output?: Output; cwd?: string; stdin?: "ignore" | "pipe" } = {},
): Started {
  let stdout: "ignore" | "inherit" | number = "ignore";
  let stderr: "ignore" | "inherit" | number = "ignore";
  let logFd: number | undefined;
  if (output === "inherit") stdout = stderr = "inherit";
  else if (output === "stderr") stderr = "inherit";
  else if (typeof output === "object") stdout = stderr = logFd = openSync(output.file, "w");
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: [stdin, stdout, stderr], detached: true });
  if (logFd !== undefined) closeSync(logFd); // the child has its own copy
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started: Started = {
    name,
    child,
    async stop(graceMs = 5_000) {
      running.delete(started);
      if (exitedAlready(child) || !signalGroup(child, "SIGTERM")) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
      if ((await Promise.race([exited, late])) === "late") {
        signalGroup(child, "SIGKILL");
        await exited;
      }
      clearTimeout(timer);
    },
  };
  running.add(started);
  child.once("exit", () => running.delete(started));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", killAllNow);
  }
  return started;
}

/** Stops every process this process started and has not stopped yet. Safe to call more than once. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((started) => started.stop()));
}

/** Synchronous SIGKILL to every group still running (for `process.on("exit")`, where nothing can be awaited). */
export function killAllNow(): void {
  for (const started of running) signalGroup(started.child, "SIGKILL");
  running.clear();
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Whether nothing listens on `port` on any address (`next start` binds them all). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port }, () => server.close(() => resolve(true)));
  });
}

async function claimPort(port: number | undefined, what: string): Promise<number> {
  if (port === undefined) return freePort();
  if (!(await portIsFree(port))) throw new Error(`port ${port} (for ${what}) is in use: is another run still going? Stop it and try again.`);
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check()` is true, failing early when the process exits and after `timeoutMs`. */
async function waitUntil(started: Started, what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { exitCode, signalCode } = started.child;
    if (exitCode !== null || signalCode !== null) throw new Error(`${what} exited (${exitCode ?? signalCode}) before it was ready`);
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  await started.stop();
  throw new Error(`${what} was not ready within ${timeoutMs / 1000} s`);
}

/** Whether `url` answers with a status below 500 (any page, redirect or 404 means the server is up). */
async function answers(url: string): Promise<boolean> {
  const response = await fetch(url, { redirect: "manual" });
  await response.arrayBuffer();
  return response.status < 500;
}

/** `node --import tsx [nodeArgs] script args`: TypeScript without the npx and tsx wrapper processes. */
const tsxArgs = (script: string, args: string[] = [], nodeArgs: string[] = []) => [...nodeArgs, "--import", "tsx", script, ...args];

// ───────────────────────────────────────── the payment service emulator ─────────────────────────────────────────

/** The emulator (emulator/) on its own port, reached over HTTP only, as the shop reaches the real service. */
export interface RunningEmulator extends Started {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The sandbox API base to use as PAYMENT_API_BASE_URL. */
  apiBase: string;
  /** A `/__emulator/…` control API call (emulator/README.md, "Control API"): POST with a JSON body, else GET. */
  control<T = unknown>(path: string, body?: unknown): Promise<T>;
}

/**
 * Starts `tsx emulator/server.ts` (rate limit off, quiet) on `port` (default: a free one) with extra `env`
 * (`EMULATOR_WEBHOOK_URL`, …), and resolves once `/__emulator/health` answers.
 */
export async function startEmulator({ port, env = {}, output = "stderr" }: { port?: number; env?: Record<string, string>; output?: Output } = {}): Promise<RunningEmulator> {
  const chosen = await claimPort(port, "the emulator");
  const url = `http://127.0.0.1:${chosen}`;
  const started = startProcess("emulator", process.execPath, tsxArgs("emulator/server.ts"), {
    env: { EMULATOR_PORT: String(chosen), EMULATOR_QUIET: "1", EMULATOR_RATE_LIMIT: "0", ...env },
    output,
  });
  await waitUntil(started, "the emulator", async () => (await fetch(`${url}/__emulator/health`)).ok, 30_000);
  return {
    ...started,
    url,
    apiBase: `${url}/pay/sandbox/api/v1`,
    async control<T>(controlPath: string, body?: unknown): Promise<T> {
      const response = await fetch(`${url}/__emulator${controlPath}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`emulator ${controlPath} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}

// ─────────────────────────────────────────────── the database ───────────────────────────────────────────────────

export interface RunningDatabase extends Started {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
}

/**
 * Starts the embedded PostgreSQL (scripts/embedded-postgres.ts: PGlite over the wire protocol) as a process of its
 * own on `port` (default: a free one), in memory unless `dataDir` is given; resolves once it accepts connections.
 */
export async function startEmbeddedDatabase({ port, dataDir, output = "ignore" }: { port?: number; dataDir?: string; output?: Output } = {}): Promise<RunningDatabase> {
  const chosen = await claimPort(port, "the embedded database");
  const args = ["--port", String(chosen), ...(dataDir ? ["--data", dataDir] : [])];
  const started = startProcess("embedded database", process.execPath, tsxArgs("scripts/embedded-postgres.ts", args), { output });
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ port: chosen, host: "127.0.0.1" });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  await waitUntil(started, "the embedded database", accepts, 60_000);
  return { ...started, url: `postgresql://postgres@127.0.0.1:${chosen}/postgres` };
}

/**
 * Runs `command args` to completion in its own process group (stopped by {@link stopAll} on Ctrl-C).
 * @returns its exit status and output.
 */
export function runToCompletion(
  command: string,
  args: string[],
  { env = {}, input, timeoutMs = 600_000, cwd = ROOT }: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
    const started: Started = {
      name: path.basename(command),
      child,
      async stop() {
        running.delete(started);
        signalGroup(child, "SIGKILL");
      },
    };
    running.add(started);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.stdin!.end(input ?? "");
    const timer = setTimeout(() => {
      void started.stop();
      reject(new Error(`${command} ${args.join(" ")} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      running.delete(started);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The last lines of a failed command's output, for an error message. */
const tail = (text: string) => text.trim().split("\n").slice(-5).join(" | ");

/**
 * Applies the migrations in drizzle/ to the database at `url`, as a deploy does
 * (`tsx --conditions=react-server scripts/db-migrate.ts`).
 */
export async function migrate(url: string): Promise<void> {
  const { status, stdout, stderr } = await runToCompletion(process.execPath, tsxArgs("scripts/db-migrate.ts", [], ["--conditions=react-server"]), {
    env: { DATABASE_URL: url, NODE_ENV: "production" },
    timeoutMs: 120_000,
  });
  if (status !== 0) throw new Error(`scripts/db-migrate.ts exited with ${status}: ${tail(stderr || stdout)}`);
}

/** Creates a back-office admin (or sets its password) in the database at `url`, with `npm run admin`'s script. */
export async function createAdmin(url: string, email: string, password: string): Promise<void> {
  const { status, stdout, stderr } = await runToCompletion(process.execPath, tsxArgs("scripts/admin.ts", ["create", email, "--password-stdin"], ["--conditions=react-server"]), {
    env: { DATABASE_URL: url, NODE_ENV: "production" },
    input: password,
    timeoutMs: 60_000,
  });
  if (status !== 0) throw new Error(`scripts/admin.ts exited with ${status}: ${tail(stderr || stdout)}`);
}

// ─────────────────────────────────────────────── next start ─────────────────────────────────────────────────────

export interface RunningApp extends Started {
  /** `http://localhost:<port>` */
  url: string;
  port: number;
}

export interface NextAppOptions {
  /** Default: a free port. A port that is taken is an error. */
  port?: number;
  /** Added to this process's environment (the shop's configuration: DATABASE_URL, secrets, SITE_URL…). */
  env?: Record<string, string | undefined>;
  /** The build folder (the shop's next.config.mjs reads NEXT_DIST_DIR); default `.next`. */
  distDir?: string;
  output?: Output;
  /** Milliseconds to wait for the first answer; default 60 s. */
  timeoutMs?: number;
}

/**
 * `next start` of the Next.js app in `cwd`, with the Next.js installed there (or the project's), in production mode;
 * resolves once `/` answers with a status below 500.
 */
export async function startNextApp(name: string, cwd: string, { port, env = {}, distDir, output = "ignore", timeoutMs = 60_000 }: NextAppOptions = {}): Promise<RunningApp> {
  const chosen = await claimPort(port, name);
  const local = path.join(cwd, "node_modules/next/dist/bin/next");
  const bin = existsSync(local) ? local : path.join(ROOT, "node_modules/next/dist/bin/next");
  const started = startProcess(name, process.execPath, [bin, "start", "--port", String(chosen)], {
    cwd,
    env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...(distDir ? { NEXT_DIST_DIR: distDir } : {}), ...env },
    output,
  });
  const url = `http://localhost:${chosen}`;
  await waitUntil(started, `${name} (next start)`, () => answers(url), timeoutMs);
  return { ...started, url, port: chosen };
}

/**
 * The shop's production build (`next start` in the project's root) with `env` as its configuration. The database
 * must be migrated first ({@link migrate}): a production shop refuses to start otherwise.
 */
export function startShop(options: NextAppOptions = {}): Promise<RunningApp> {
  return startNextApp("the shop", ROOT, options);
}
