import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Pool } from "pg";
import { createDatabase } from "../scripts/servers";
import { expect, stack, test } from "./support";
import { databaseServerUrl } from "./stacks";

/** The production server checks its environment when it starts (instrumentation.ts + lib/env.ts). */

/** The production server, as `npm start` runs it. */
const SERVER = ".next/standalone/server.js";

function startShop(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SERVER], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: String(stack().sparePorts[0]),
        ...env,
      },
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    // A server that is still up after 20 s did not refuse to start: stop it and report.
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGTERM"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test("a production server with a broken environment refuses to start and names each variable", async () => {
  const { code, output } = await startShop({
    PAYMENT_API_BASE_URL: "http://pay.example.ly/pay/api/v1",
    PAYMENT_CLIENT_ID: " padded ",
    PAYMENT_CLIENT_SECRET: "<your-client-secret>",
    SESSION_SECRET: "too-short",
  });
  expect(code).toBe(1);
  expect(output).toContain("PAYMENT_API_BASE_URL uses http:// on a host other than this machine");
  expect(output).toContain("PAYMENT_CLIENT_ID has leading or trailing spaces");
  expect(output).toContain("PAYMENT_CLIENT_SECRET still holds a placeholder");
  expect(output).toContain("SESSION_SECRET must be at least 32 characters");
  expect(output).toContain("SITE_URL is missing");
  expect(output).toContain("The shop cannot start");
});

test("a loopback SITE_URL in production starts, with a warning that customers elsewhere cannot come back", async ({
  request,
}) => {
  // The suite's own server runs with SITE_URL=http://localhost:3100 in production mode.
  expect((await request.get("/")).ok()).toBe(true);
  expect(readFileSync(stack().shopLog, "utf8")).toMatch(
    /SITE_URL is http:\/\/localhost:\d+, a loopback address: customers on other machines cannot come back/,
  );
});

test("a production server whose database lacks migrations refuses to start and says which command to run", async () => {
  // A database nobody has migrated: a deploy that skipped `npm run db:migrate`.
  const name = `shop_unmigrated_${Date.now()}`;
  const empty = await createDatabase(databaseServerUrl(), name);
  try {
    const { code, output } = await startShop({ ...stack().env, DATABASE_URL: empty, DATABASE_URL_UNPOOLED: empty });
    expect(code).toBe(1);
    expect(output).toContain("lacks migrations 0000_orders");
    expect(output).toContain("Run `npm run db:migrate` with this DATABASE_URL");
  } finally {
    const admin = new Pool({ connectionString: databaseServerUrl(), max: 1 });
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

test("a production server without SMTP_URL starts, serves pages, and says once that e-mail is off", async () => {
  const env: Record<string, string> = { ...stack().env };
  delete env.SMTP_URL;
  const port = stack().sparePorts[1];
  const child = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOSTNAME: "::",
      ...env,
    },
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const status = async (path: string) => (await fetch(`http://localhost:${port}${path}`).catch(() => null))?.status;
    await expect.poll(() => status("/"), { timeout: 30_000 }).toBe(200);
    // The proxy, the pages and the instrumentation each load lib/env.ts: still one line.
    expect(await status("/cart")).toBe(200);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
  expect(output.match(/SMTP_URL is not set: e-mail is off/g)).toHaveLength(1);
});
