// The browser tests' database server: a throwaway embedded PostgreSQL on the first port given, and with a second
// port, PgBouncer in transaction mode in front of it there (the pooler Neon and Supabase run), so the shop can be
// tested as merchants on serverless hosts run it. Started by Playwright as a web server (playwright.config.ts) and
// stopped by it with SIGTERM, which stops both and removes their files.
//
//   tsx e2e/database.ts 4120            PostgreSQL on 4120
//   tsx e2e/database.ts 4120 6432       … and PgBouncer (Debian package `pgbouncer`) on 6432
import { startEmbeddedDatabase, startPgBouncer } from "../scripts/servers";

const [databasePort, poolerPort] = process.argv.slice(2).map(Number);
const server = await startEmbeddedDatabase({ port: databasePort });
console.log(`[e2e] embedded PostgreSQL at 127.0.0.1:${server.port}, data in ${server.dataDir} (removed at the end)`);
const pooler = poolerPort ? await startPgBouncer({ port: poolerPort, upstreamPort: server.port }) : undefined;
if (pooler) console.log(`[e2e] PgBouncer in transaction mode at 127.0.0.1:${pooler.port}`);

const stop = () => void Promise.all([pooler?.stop(), server.stop()]).finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
