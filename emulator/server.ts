/**
 * Starts the emulator on a port: `npm run emulator` (= `tsx emulator/server.ts`).
 * Configuration comes from environment variables; see env.ts and the README.
 */
import { createEmulator } from "./app";
import { API_BASE } from "./config";
import { configFromEnv, type ServerConfig } from "./env";
import { startServer, type RunningServer } from "./serve";

const PURGE_INTERVAL_MS = 30_000;
const FORCED_EXIT_MS = 3_000;

let config: ServerConfig;
try {
  config = configFromEnv(process.env);
} catch (error) {
  console.error(`[emulator] ${error instanceof Error ? error.message : String(error)}`);
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
    `${prepaid?.name} ${prepaid?.keys.sandbox.clientId} / ${prepaid?.keys.sandbox.clientSecret}`,
);

// Expired tokens and payments are also purged lazily on requests; this keeps an idle server lean.
const purgeTimer = setInterval(() => state.purge(), PURGE_INTERVAL_MS);
purgeTimer.unref();

const server = running;
const shutdown = (signal: NodeJS.Signals) => {
  if (!config.quiet) console.log(`[emulator] ${signal} received, closing.`);
  clearInterval(purgeTimer);
  setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
  void server.close().then(() => process.exit(0));
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
