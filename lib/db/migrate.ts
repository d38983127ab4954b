import "server-only";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Pool } from "pg";
import journal from "../../drizzle/meta/_journal.json";

/**
 * Schema migrations: the SQL files in `drizzle/`, written by `npm run db:generate` from lib/db/schema.ts and applied
 * in order by {@link applyMigrations}. Drizzle records each applied migration in `drizzle.__drizzle_migrations`.
 */

/**
 * The connection string migrations use: `DATABASE_URL_UNPOOLED` when set (a direct connection; Vercel's Neon
 * integration sets it), else `DATABASE_URL`. Migrations hold a session-level advisory lock across statements, which
 * a transaction pooler cannot keep: it hands each transaction to whichever server connection is free.
 */
export function migrationDatabaseUrl(source: Record<string, string | undefined> = process.env): string | undefined {
  return source.DATABASE_URL_UNPOOLED || source.DATABASE_URL || undefined;
}

/**
 * Whether a connection string names a known transaction pooler: Neon's `-pooler` host, Supabase's pooler
 * (`*.pooler.supabase.com`, or its transaction port 6543), or a URL marked `pgbouncer=true`. A guess from the
 * name, used only to advise (`npm run doctor`).
 */
export function looksLikeTransactionPooler(connectionString: string): boolean {
  if (!URL.canParse(connectionString)) return false;
  const url = new URL(connectionString);
  return (
    /-pooler\./.test(url.hostname) ||
    url.hostname.endsWith(".pooler.supabase.com") ||
    url.port === "6543" ||
    url.searchParams.get("pgbouncer") === "true"
  );
}

/** Where the SQL files live. Only the migrate command and development read them; the server reads the journal. */
const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/**
 * Applies every migration the database has not had yet, in one transaction, while holding a PostgreSQL advisory
 * lock: two deploys migrating at once take turns instead of racing, and the second finds nothing left to do.
 * @returns the tags of the migrations it applied (empty when the database was up to date).
 * @throws the database's error when a migration fails; nothing of it is applied then.
 */
export async function applyMigrations(pool: Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('shop.migrations'))");
    try {
      const pending = await pendingMigrations(client);
      if (pending.length > 0) await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      return pending;
    } finally {
      await client.query("select pg_advisory_unlock(hashtext('shop.migrations'))");
    }
  } finally {
    client.release();
  }
}

/**
 * The migrations of this checkout (the journal in `drizzle/meta`) that the database has not applied yet, oldest
 * first. Drizzle applies a migration when its timestamp is newer than the newest one applied; so does this.
 * @param db a pool or a connected client.
 */
export async function pendingMigrations(db: Pick<Pool, "query">): Promise<string[]> {
  const table = await db.query<{ exists: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as exists",
  );
  let newest = 0;
  if (table.rows[0]?.exists) {
    const { rows } = await db.query<{ newest: string | null }>(
      "select max(created_at)::text as newest from drizzle.__drizzle_migrations",
    );
    newest = Number(rows[0]?.newest ?? 0);
  }
  return journal.entries.filter((entry) => entry.when > newest).map((entry) => entry.tag);
}
