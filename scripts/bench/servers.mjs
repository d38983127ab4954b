// The processes of a bench run: the production build in its own folder, `next start` and the emulator on their own
// ports (never the dev server's 3000/4010 nor the browser tests' 3100/4110). Every process is started in its own
// process group and stopped with it, on success, failure or Ctrl-C.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";

export const SHOP_PORT = 3200;
export const EMULATOR_PORT = 4210;
export const DIST_DIR = ".next-bench";
export const SHOP_URL = `http://localhost:${SHOP_PORT}`;
export const EMULATOR_URL = `http://127.0.0.1:${EMULATOR_PORT}`;
export const PAYMENT_API_BASE_URL = `${EMULATOR_URL}/pay/sandbox/api/v1`;
export const CLIENT_ID = "sandbox-demo-client-id";
export const CLIENT_SECRET = "sandbox-demo-client-secret";

/** The shop's environment during the bench (the brief's list; the secret is for this bench only). */
export const SHOP_ENV = {
  NEXT_DIST_DIR: DIST_DIR,
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_ENV: "production",
  PAYMENT_API_BASE_URL,
  PAYMENT_CLIENT_ID: CLIENT_ID,
  PAYMENT_CLIENT_SECRET: CLIENT_SECRET,
  SESSION_SECRET: "bench-only-session-secret-0123456789abcdef",
  SITE_URL: SHOP_URL,
  LOG_LEVEL: "warn",
};

const running = new Set();

/** Stops one started process group: SIGTERM, then SIGKILL after `graceMs`. */
async function stopGroup(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  const timer = new Promise((resolve) => setTimeout(() => resolve("timeout"), graceMs));
  if ((await Promise.race([exited, timer])) === "timeout") {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
    await exited;
  }
}

/** Stops every process this run started. Safe to call more than once. */
export async function stopAll() {
  const children = [...running];
  running.clear();
  await Promise.all(children.map((child) => stopGroup(child)));
}

/** Last resort on `process.exit`: a synchronous SIGKILL to any group still alive. */
export function killAllNow() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  running.clear();
}

/** Whether nothing listens on `port` (checked on every address, as `next start` binds them all). */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port }, () => server.close(() => resolve(true)));
  });
}

async function waitFor(url, what, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(url, { redirect: "manual" });
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} was not ready at ${url} within ${timeoutMs / 1000} s`);
}

/** Starts `command args` in its own process group with its output in `logFile`. */
function startGroup(command, args, env, logFile) {
  const log = openSync(logFile, "w");
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", log, log], detached: true });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** `content` of a file Next.js rewrote, with the build folder's traces taken out, for comparison with the original. */
const undoDistDir = {
  "tsconfig.json": (content) => {
    const config = JSON.parse(content);
    config.include = config.include?.filter((entry) => !entry.startsWith(`${DIST_DIR}/`));
    return JSON.stringify(config);
  },
  "next-env.d.ts": (content) => content.replaceAll(`./${DIST_DIR}/`, "./.next/"),
};
const normalise = { "tsconfig.json": (content) => JSON.stringify(JSON.parse(content)), "next-env.d.ts": (content) => content };

/**
 * `next build` into `.next-bench`. For a build in another folder Next.js rewrites `tsconfig.json` (adds
 * `.next-bench/types/**` to `include`, reformats) and `next-env.d.ts` (imports `./.next-bench/types/…`). Both are put
 * back byte for byte afterwards when that is all that changed; if someone edited them during the build, they are left
 * alone and a warning says what to remove.
 */
export function build() {
  const before = new Map(Object.keys(undoDistDir).filter((file) => existsSync(file)).map((file) => [file, readFileSync(file, "utf8")]));
  try {
    console.log(`▶ next build (into ${DIST_DIR}/)`);
    const { status } = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, ...SHOP_ENV } });
    if (status !== 0) throw new Error(`next build failed (exit ${status})`);
  } finally {
    for (const [file, original] of before) {
      const now = readFileSync(file, "utf8");
      if (now === original) continue;
      let same = false;
      try {
        same = undoDistDir[file](now) === normalise[file](original);
      } catch {
        same = false;
      }
      if (same) writeFileSync(file, original);
      else console.warn(`⚠ ${file} changed during the build: remove any "${DIST_DIR}" entries from it by hand.`);
    }
  }
}

/**
 * Starts the emulator and the production shop, each in its own process group, and waits until both answer.
 * @returns nothing; {@link stopAll} stops them.
 */
export async function startServers() {
  if (!existsSync(`${DIST_DIR}/BUILD_ID`)) throw new Error(`no build in ${DIST_DIR}/: run without --no-build first`);
  for (const port of [SHOP_PORT, EMULATOR_PORT]) {
    if (!(await portFree(port))) throw new Error(`port ${port} is in use: is another bench running? Stop it and try again.`);
  }
  mkdirSync(DIST_DIR, { recursive: true });
  const emulator = startGroup(
    "npx",
    ["tsx", "emulator/server.ts"],
    { EMULATOR_PORT: String(EMULATOR_PORT), EMULATOR_QUIET: "1", EMULATOR_RATE_LIMIT: "0" },
    `${DIST_DIR}/bench-emulator.log`,
  );
  const shop = startGroup("npx", ["next", "start", "--port", String(SHOP_PORT)], SHOP_ENV, `${DIST_DIR}/bench-shop.log`);
  await Promise.all([
    waitFor(`${EMULATOR_URL}/__emulator/health`, "the emulator", emulator),
    waitFor(SHOP_URL, "the shop (next start)", shop),
  ]);
}

/** The emulator's control API (emulator/README.md, "Control API"). */
export const emulatorControl = {
  async config(settings) {
    const response = await fetch(`${EMULATOR_URL}/__emulator/config`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(settings),
    });
    if (!response.ok) throw new Error(`emulator config answered ${response.status}`);
    return (await response.json()).config;
  },
  async reset() {
    const response = await fetch(`${EMULATOR_URL}/__emulator/reset`, { method: "POST" });
    if (!response.ok) throw new Error(`emulator reset answered ${response.status}`);
    await response.arrayBuffer();
  },
  async payments() {
    const response = await fetch(`${EMULATOR_URL}/__emulator/payments`);
    if (!response.ok) throw new Error(`emulator payments answered ${response.status}`);
    const body = await response.json();
    return Array.isArray(body) ? body : body.payments;
  },
};

/**
 * Runs `command args` to completion in its own process group (stopped by {@link stopAll} on Ctrl-C).
 * @returns `{ status, stdout, stderr }`
 */
export function runToCompletion(command, args, { env = {}, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      stopGroup(child);
      reject(new Error(`${command} ${args.join(" ")} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("exit", (status) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ status, stdout, stderr });
    });
  });
}
