/**
 * Runs once when the server starts (Next.js instrumentation). In the Node.js runtime it checks the environment and
 * the database up front (lib/startup.ts): a production server with a broken variable or pending migrations
 * refuses to start; a development server applies pending migrations. Before that, unless a proxy is trusted, it makes
 * each request's client address the TCP peer's (lib/client-address.ts, believeOnlyTheSocket).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // First: a request that arrives before this keeps the X-Forwarded-For its client wrote.
    const { believeOnlyTheSocket } = await import("./lib/client-address");
    believeOnlyTheSocket();
    const { checkStartup } = await import("./lib/startup");
    await checkStartup();
  }
}
