import "server-only";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { getEnv } from "../env";
import { logger } from "../log";
import * as schema from "./schema";

/** The shop's database handle: Drizzle over a `pg` pool, the same driver against every PostgreSQL. */
export type Db = NodePgDatabase<typeof schema>;

/**
 * Connections per server instance. Serverless hosts run many instances, each with its own pool, so keep it small
 * and point DATABASE_URL at a pooled endpoint (Neon's `-pooler` host, Supabase's pooler).
 */
const POOL_SIZE = 5;

/** Wraps a `pg` pool in Drizzle with the schema's snake_case column names. Tests pass their own pool. */
export function createDb(pool: Pool): Db {
  return drizzle(pool, { schema, casing: "snake_case" });
}

// One pool per process. Kept on globalThis so that `next dev` reloading this module does not open a new pool
// (and leak connections) on every edit.
const cache = globalThis as typeof globalThis & { shopDb?: Db };

/**
 * The process's database, connected on first use from DATABASE_URL.
 * A query on an unreachable database fails within 5 s (connection) or 10 s (statement), never hangs a checkout.
 * @throws EnvError when the environment is unusable.
 */
export function getDb(): Db {
  if (!cache.shopDb) {
    const pool = new Pool({
      connectionString: getEnv().DATABASE_URL,
      max: POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 10_000,
      application_name: "shop",
    });
    // An idle connection that the server closes must not crash the process; the pool replaces it.
    pool.on("error", (error) => logger.warn({ event: "db_pool_error", err: error.message }));
    cache.shopDb = createDb(pool);
  }
  return cache.shopDb;
}
