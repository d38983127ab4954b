import "server-only";
import { Pool } from "pg";
import { DEVELOPMENT_ADMIN, ensureDevelopmentAdmin } from "./admin/accounts";
import { seedDemoCatalogue } from "./catalog/demo";
import { createDb } from "./db/client";
import { applyMigrations, migrationDatabaseUrl, pendingMigrations } from "./db/migrate";
import { EnvError, getEnv, withoutPassword } from "./env";
import { logger } from "./log";

/** The migration that creates the catalogue's tables (drizzle/). */
const CATALOGUE_MIGRATION = "0012_catalogue";

/**
 * Runs when the server starts (instrumentation.ts, Node.js runtime only), so that a broken setup stops the server
 * with a message instead of failing a customer's first checkout:
 * - the environment is validated; a production server with a missing or malformed variable exits, naming each;
 * - the database: in production, pending migrations stop the server (run `npm run db:migrate` first, see the
 *   README's deploy steps); in development they are applied on the spot, and a first admin is created for the back
 *   office when there is none, and a new database gets the demo products (lib/catalog/demo.ts); production never does
 *   either: `npm run admin -- create <email>`, and the merchant's own products.
 */
export async function checkStartup(): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    refuse("The shop cannot start: fix the variables in `problems` (see .env.example), or run `npm run doctor`.", {
      problems: error.problems,
    });
  }

  const production = process.env.NODE_ENV === "production";
  const database = withoutPassword(env.DATABASE_URL);
  // Development applies migrations, which need a session of their own (lib/db/migrate.ts); production only reads.
  const pool = new Pool({
    connectionString: production ? env.DATABASE_URL : (migrationDatabaseUrl() ?? env.DATABASE_URL),
    max: 1,
    connectionTimeoutMillis: 5_000,
  });
  pool.on("error", () => {});
  try {
    if (production) {
      const pending = await pendingMigrations(pool);
      if (pending.length > 0) {
        refuse(
          `The database ${database} lacks migrations ${pending.join(", ")}. The shop cannot start. ` +
            "Run `npm run db:migrate` with this DATABASE_URL, then start it again.",
          { database, pending },
        );
      }
    } else {
      const applied = await applyMigrations(pool);
      if (applied.length > 0) logger.info({ event: "migrations_applied", migrations: applied, database });
      // The demo products, once: when the catalogue's tables were just created (a new development database, or one
      // from before the catalogue moved into the database). Deleting them later is the developer's choice to keep.
      if (applied.includes(CATALOGUE_MIGRATION)) {
        const seeded = await seedDemoCatalogue(createDb(pool));
        if (seeded > 0) logger.info({ event: "demo_catalogue_seeded", products: seeded, database });
      }
      if (await ensureDevelopmentAdmin(createDb(pool))) {
        // Development only, and both are in the source (lib/admin/accounts.ts): no secret, nobody's data.
        logger.info(
          { event: "development_admin_created" },
          `sign in at /admin as ${DEVELOPMENT_ADMIN.email} with the password "${DEVELOPMENT_ADMIN.password}"`,
        );
      }
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint = env.usingEmbeddedDatabase
      ? "Start the shop with `npm run dev`, which starts the embedded database."
      : "Check DATABASE_URL and that the database accepts connections.";
    if (production) refuse(`Cannot reach the database ${database}: ${reason}. The shop cannot start. ${hint}`);
    logger.warn({ event: "database_unreachable", database, reason }, hint);
  } finally {
    await pool.end();
  }
}

/** Logs why the server cannot start, and stops it (pino writes what it holds when the process exits). */
function refuse(message: string, details: Record<string, unknown> = {}): never {
  logger.fatal({ event: "startup_refused", ...details }, message);
  process.exit(1);
}
