// `npm run dev`: the storefront on :3000 with, unless .env.local points elsewhere, the local emulator of the payment
// service on 127.0.0.1:4010 (sending its signed webhooks to the shop) and the embedded PostgreSQL on
// 127.0.0.1:54320 (data in .data/pg). The shop applies pending migrations when it starts (lib/startup.ts). Ctrl-C
// stops everything.
import { existsSync } from "node:fs";
import concurrently from "concurrently";
import { DEVELOPMENT_WEBHOOK_SECRET, EMBEDDED_DATABASE_URL } from "../lib/env";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";

if (existsSync(".env.local")) process.loadEnvFile(".env.local");
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const emulatorPort = process.env.EMULATOR_PORT ?? "4010";
const base = process.env.PAYMENT_API_BASE_URL;
const needsEmulator = !base || pointsAtEmulator(base);

function pointsAtEmulator(url: string): boolean {
  if (!URL.canParse(url)) return false; // lib/env.ts explains what is wrong with it when the shop starts
  const { hostname, port } = new URL(url);
  return ["127.0.0.1", "localhost"].includes(hostname) && port === emulatorPort;
}

let database: EmbeddedPostgres | undefined;
if (process.env.DATABASE_URL) {
  console.log("[dev] DATABASE_URL is set: using that database.");
} else {
  const { port } = new URL(EMBEDDED_DATABASE_URL);
  try {
    database = await startEmbeddedPostgres({ port: Number(port), dataDir: ".data/pg" });
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
    console.error(inUse ? `[dev] Port ${port} is in use: is another \`npm run dev\` running? Stop it, or set DATABASE_URL.` : `[dev] The embedded database did not start: ${String(error)}`);
    process.exit(1);
  }
  console.log(`[dev] Embedded PostgreSQL (PGlite, data in .data/pg) at ${database.url}; set DATABASE_URL to use your own.`);
}

const commands: { command: string; name: string; prefixColor: string; env?: Record<string, string> }[] = [{ command: "next dev", name: "shop", prefixColor: "green" }];
if (needsEmulator) {
  // The emulator confirms each payment to the shop with a webhook signed with the shop's own webhook secret.
  const webhook = {
    EMULATOR_WEBHOOK_URL: process.env.EMULATOR_WEBHOOK_URL ?? `${process.env.SITE_URL ?? "http://localhost:3000"}/api/payments/webhook`,
    EMULATOR_WEBHOOK_SECRET: process.env.EMULATOR_WEBHOOK_SECRET ?? process.env.PAYMENT_WEBHOOK_SECRET ?? DEVELOPMENT_WEBHOOK_SECRET,
  };
  commands.unshift({ command: "tsx emulator/server.ts", name: "emulator", prefixColor: "blue", env: webhook });
}
else console.log(`[dev] PAYMENT_API_BASE_URL is ${base}: not starting the local emulator.`);

const { result } = concurrently(commands, { killOthersOn: ["failure", "success"], restartTries: 0 });
const stop = (code: number) => void (database?.stop() ?? Promise.resolve()).finally(() => process.exit(code));
result.then(
  () => stop(0),
  () => stop(1),
);
