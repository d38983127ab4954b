/**
 * Runs once when the server starts (Next.js instrumentation). In the Node.js runtime it checks the environment up
 * front (lib/startup.ts), so a production server with a missing or malformed variable refuses to start.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { checkEnvironmentOrExit } = await import("./lib/startup");
    checkEnvironmentOrExit();
  }
}
