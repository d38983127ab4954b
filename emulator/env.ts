/**
 * Reads the emulator's environment variables (all optional). A malformed value stops the server with a message
 * naming the variable.
 */
import { defaultMerchants } from "./config";
import type { EmulatorOptions } from "./state";

export interface ServerConfig {
  host: string;
  port: number;
  quiet: boolean;
  options: EmulatorOptions & { publicUrl: string; rateLimit: number; latencyMs: number };
}

/** Thrown for a malformed environment variable. */
export class EnvError extends Error {
  constructor(name: string, problem: string) {
    super(`${name} ${problem}`);
    this.name = "EnvError";
  }
}

type Env = Record<string, string | undefined>;

const read = (env: Env, name: string) => {
  const value = env[name]?.trim();
  return value === "" ? undefined : value;
};

function integer(env: Env, name: string, fallback: number, max: number): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new EnvError(name, `must be a whole number from 0 to ${max}, got "${value}".`);
  }
  return Number(value);
}

/** Builds the server configuration from environment variables (see README "Configuration"). */
export function configFromEnv(env: Env): ServerConfig {
  const host = read(env, "EMULATOR_HOST") ?? "127.0.0.1";
  const port = integer(env, "EMULATOR_PORT", 4010, 65_535);
  const publicUrl = read(env, "EMULATOR_PUBLIC_URL") ?? `http://127.0.0.1:${port}`;
  if (!/^https?:\/\/[^/]+\/?$/.test(publicUrl)) {
    const example = `http://127.0.0.1:${port}`;
    throw new EnvError("EMULATOR_PUBLIC_URL", `must be an origin such as ${example}, got "${publicUrl}".`);
  }
  const quiet = ["1", "true", "yes"].includes(read(env, "EMULATOR_QUIET")?.toLowerCase() ?? "");

  return {
    host,
    port,
    quiet,
    options: {
      publicUrl,
      rateLimit: integer(env, "EMULATOR_RATE_LIMIT", 60, 1_000_000),
      latencyMs: integer(env, "EMULATOR_LATENCY_MS", 0, 60_000),
      merchants: defaultMerchants({
        clientId: read(env, "EMULATOR_CLIENT_ID"),
        clientSecret: read(env, "EMULATOR_CLIENT_SECRET"),
        prepaidClientId: read(env, "EMULATOR_PREPAID_CLIENT_ID"),
        prepaidClientSecret: read(env, "EMULATOR_PREPAID_CLIENT_SECRET"),
      }),
    },
  };
}
