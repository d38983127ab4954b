import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/**
 * The payment service emulator (emulator/) as a separate process on a free port, reached over HTTP only, exactly
 * as the shop reaches the real service. For integration tests of lib/ code that calls the service.
 */
export interface RunningEmulator {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The sandbox API base to use as PAYMENT_API_BASE_URL. */
  apiBase: string;
  /** `/__emulator/…` control API call with a JSON body; returns the parsed answer. */
  control<T = unknown>(path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the emulator with extra environment variables; resolves once its health check answers. */
export async function startEmulator(env: Record<string, string> = {}): Promise<RunningEmulator> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn("npx", ["tsx", "emulator/server.ts"], {
    env: { ...process.env, EMULATOR_PORT: String(port), EMULATOR_QUIET: "1", EMULATOR_RATE_LIMIT: "0", ...env },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the emulator exited with ${child.exitCode}`);
    const healthy = await fetch(`${url}/__emulator/health`).then((r) => r.ok, () => false);
    if (healthy) break;
    if (Date.now() - started > 20_000) throw new Error("the emulator did not start within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    apiBase: `${url}/pay/sandbox/api/v1`,
    async control<T>(path: string, body?: unknown) {
      const response = await fetch(`${url}/__emulator${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`emulator ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    },
  };
}

/** A TCP port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
