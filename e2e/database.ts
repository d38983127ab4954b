// The browser tests' database server when TEST_DATABASE_URL is unset: a throwaway embedded PostgreSQL on the port
// given, started by Playwright as a web server (playwright.config.ts) and removed when Playwright stops it.
//
//   tsx e2e/database.ts 4120
import { startEmbeddedDatabase } from "../scripts/servers";

const server = await startEmbeddedDatabase({ port: Number(process.argv[2]) });
console.log(`[e2e] embedded PostgreSQL at 127.0.0.1:${server.port}, data in ${server.dataDir} (removed at the end)`);
const stop = () => void server.stop().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
