/**
 * Runs once when the server starts (Next.js instrumentation). Validates the environment up front, so a production
 * server with a missing or malformed variable refuses to start, naming the variable and the fix, instead of failing
 * on a customer's first checkout. In development it logs the emulator fallback once.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { EnvError, getEnv } = await import("./lib/env");
  try {
    getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`\n${error.message}\n\nThe shop cannot start. Fix the variables above (see .env.example), or run \`npm run doctor\`.\n`);
    process.exit(1);
  }
}
