import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createEmulator } from "./app";
import { startServer, type RunningServer } from "./server";
import { DEMO, ORDER, SANDBOX_API } from "./test-helpers";

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = createEmulator(options);
  running = await startServer(emulator.app, { host: "127.0.0.1", port: 0 });
  return { ...emulator, url: running.url };
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("over HTTP (@hono/node-server)", () => {
  it("runs token → create → page → Pay → redirect", async () => {
    const { url } = await start();
    const token = await postJson(`${url}${SANDBOX_API}/authentication/token`, DEMO);
    const accessToken = ((await token.json()) as { data: { access_token: string } }).data.access_token;
    const create = await postJson(`${url}${SANDBOX_API}/payment/create`, ORDER, {
      Authorization: `Bearer ${accessToken}`,
    });
    const { data } = (await create.json()) as { data: { token: string; payment_url: string } };
    const pagePath = new URL(data.payment_url).pathname;
    expect((await fetch(`${url}${pagePath}`)).status).toBe(200);
    const pay = await fetch(`${url}${pagePath}/gateway/sadad/complete`, {
      method: "POST",
      body: new URLSearchParams({ outcome: "pay" }),
      redirect: "manual",
    });
    expect(pay.status).toBe(303);
    expect(pay.headers.get("location")).toBe(`${ORDER.return_url}?type=success&token=${data.token}`);
  });

  it("rate-limits by client IP", async () => {
    const { url, app } = await start({ rateLimit: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await postJson(`${url}${SANDBOX_API}/authentication/token`, DEMO)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // Another client (here: an in-process request, which has no IP) still has its own budget.
    const inProcess = await app.request(`${SANDBOX_API}/authentication/token`, {
      method: "POST",
      body: JSON.stringify(DEMO),
    });
    expect(inProcess.status).toBe(200);
  });

  it("a drop fault closes the socket without an answer", async () => {
    const { url } = await start();
    await postJson(`${url}/__emulator/faults`, { route: "token", kind: "drop" });
    await expect(postJson(`${url}${SANDBOX_API}/authentication/token`, DEMO)).rejects.toThrow();
    expect((await postJson(`${url}${SANDBOX_API}/authentication/token`, DEMO)).status).toBe(200);
  });
});

describe("server.ts", () => {
  it("starts under tsx, prints its URLs and credentials, serves pages and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./server.ts", import.meta.url))], {
      env: { ...process.env, EMULATOR_PORT: "0", EMULATOR_QUIET: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("\n")) resolve(output);
        });
        child.stderr.on("data", (chunk: Buffer) => reject(new Error(chunk.toString())));
        child.on("exit", () => reject(new Error(`exited early: ${output}`)));
      });
      expect(line).toContain("/pay/sandbox/api/v1");
      expect(line).toContain("sandbox-demo-client-id / sandbox-demo-client-secret");
      const url = /listening on (http:\/\/\S+) /.exec(line)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("<h1>Payment service emulator</h1>");
      const missing = await fetch(`${url}/pay/sandbox/v1/user/payment/preview/nope`);
      expect(missing.status).toBe(404);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
