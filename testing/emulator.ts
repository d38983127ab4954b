import { startEmulator as start, type RunningEmulator } from "../scripts/servers";

/**
 * The payment service emulator (emulator/) as a separate process on a free port, reached over HTTP only, exactly
 * as the shop reaches the real service. For integration tests of lib/ code that calls the service. Started by
 * scripts/servers.ts, the module the benchmarks start it with too.
 */
export type { RunningEmulator };

/** Starts the emulator with extra environment variables; resolves once its health check answers. */
export function startEmulator(env: Record<string, string> = {}): Promise<RunningEmulator> {
  return start({ env, output: "stderr" });
}
