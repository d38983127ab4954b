/**
 * Runs the emulator on a port: `npm run emulator` (= `tsx emulator/server.ts`), configured by environment variables
 * (env.ts, README "Configuration"). Tests import `startServer` to listen on a free port without the CLI around it.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import { realpathSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { createEmulator } from "./app";
import { API_BASE } from "./config";
import { configFromEnv, type ServerConfig } from "./env";

const PURGE_INTERVAL_MS = 30_000;
const FORCED_EXIT_MS = 3_000;

export interface RunningServer {
  server: ServerType;
  /** `http://host:port` actually listened on (useful with port 0). */
  url: string;
  /** Stops accepting connections, closes open ones and resolves when the server is closed. */
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0 picks a free port); rejects if the port is taken. */
export function startServer(app: Hono, { host, port }: { host: string; port: number }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      server.off("error", reject);
      const shownHost = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        server,
        url: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
    // Clients keep connections alive between calls (the shop's fetch, the tests' request contexts). Node's default of
    // 5 s lets the server close an idle connection just as a client sends on it (ECONNRESET): hold it longer than
    // they keep it idle, as a real service behind a load balancer does.
    if ("keepAliveTimeout" in server) {
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
    }
  });
}

/** A URL as the start-up line shows it: a query string could carry a secret. */
const withoutQuery = (url: string) => url.replace(/[?#].*$/, "");

async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = configFromEnv(process.env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(message.replace(/^/gm, "[emulator] "));
    process.exit(1);
  }

  const { app, state } = createEmulator({
    ...config.options,
    log: config.quiet ? undefined : (line) => console.log(`[emulator] ${line}`),
  });

  let running: RunningServer;
  try {
    running = await startServer(app, config);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      code === "EADDRINUSE"
        ? `[emulator] Port ${config.port} on ${config.host} is already in use. Set EMULATOR_PORT to another port.`
        : `[emulator] Could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }

  const publicUrl = config.options.publicUrl;
  const [demo, prepaid] = state.merchants;
  console.log(
    `[emulator] Payment service emulator listening on ${running.url} — ` +
      `sandbox API ${publicUrl}${API_BASE.sandbox}, production API ${publicUrl}${API_BASE.production}; ` +
      `sandbox credentials: ${demo?.name} ${demo?.keys.sandbox.clientId} / ${demo?.keys.sandbox.clientSecret}, ` +
      `${prepaid?.name} ${prepaid?.keys.sandbox.clientId} / ${prepaid?.keys.sandbox.clientSecret}` +
      (demo?.webhook ? `; webhooks to ${withoutQuery(demo.webhook.url)}` : ""),
  );

  // Requests purge lazily; the timer keeps an idle server lean too.
  const purgeTimer = setInterval(() => state.purge(), PURGE_INTERVAL_MS);
  purgeTimer.unref();

  const shutdown = (signal: NodeJS.Signals) => {
    if (!config.quiet) console.log(`[emulator] ${signal} received, closing.`);
    clearInterval(purgeTimer);
    state.webhooks.clear();
    setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

// Importing this file (tests) must not start a server; running it (`tsx emulator/server.ts`) does.
const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(realpathSync(entry)).href) await main();
