// `npm run db:migrate`: applies the SQL migrations in drizzle/ that the database has not had yet, under an advisory
// lock (two deploys at once take turns). Run it before starting a new version of the shop (vercel.json's build
// command does). Safe to run again: it then does nothing. It connects to DATABASE_URL_UNPOOLED when set (the lock
// needs a session of its own, which a transaction pooler does not give), else to DATABASE_URL.
import { Pool } from "pg";
import { applyMigrations, migrationDatabaseUrl } from "../lib/db/migrate";
import { developmentPort, embeddedDatabaseUrl, withoutPassword } from "../lib/env";
import { loadDevelopmentEnvFiles } from "./env-files";

const production = process.env.NODE_ENV === "production" || Boolean(process.env.VERCEL);
loadDevelopmentEnvFiles(production);
const url =
  migrationDatabaseUrl() || (production ? undefined : embeddedDatabaseUrl(developmentPort("DEV_DATABASE_PORT")));
if (!url) {
  console.error("[db] DATABASE_URL is not set: point it at the shop's PostgreSQL (see .env.example).");
  process.exit(1);
}
const shown = withoutPassword(url);
const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000 });
pool.on("error", () => {});

// A database that is still starting (the embedded one, a serverless one waking up) gets 30 s to answer.
const waitUntil = Date.now() + 30_000;
for (;;) {
  try {
    const applied = await applyMigrations(pool);
    console.log(applied.length ? `[db] applied ${applied.join(", ")} to ${shown}` : `[db] ${shown} is up to date`);
    break;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if ((code === "ECONNREFUSED" || code === "57P03") && Date.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    console.error(`[db] could not migrate ${shown}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    break;
  }
}
await pool.end();
