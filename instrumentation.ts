/**
 * Runs once when the server starts (Next.js instrumentation). In the Node.js runtime it checks the environment and
 * the database up front (lib/startup.ts): a production server with a broken variable or pending migrations
 * refuses to start; a development server applies pending migrations.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { checkStartup } = await import("./lib/startup");
    await checkStartup();
  }
}
