import "server-only";
import { EnvError, getEnv } from "./env";

/**
 * Validates the environment when the server starts (called from instrumentation.ts, Node.js runtime only): a
 * production server with a missing or malformed variable prints every problem, naming the variable and the fix,
 * and exits with status 1, instead of failing on a customer's first checkout. In development it logs the emulator
 * fallback once.
 */
export function checkEnvironmentOrExit(): void {
  try {
    getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`\n${error.message}\n\nThe shop cannot start. Fix the variables above (see .env.example), or run \`npm run doctor\`.\n`);
    process.exit(1);
  }
}
