import "server-only";
import { attachDatabasePool } from "@vercel/functions";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { getEnv } from "../env";
import { logger } from "../log";
import * as schema from "./schema";

/** The shop's database handle: Drizzle over a `pg` pool, the same driver against every PostgreSQL. */
export type Db = NodePgDatabase<typeof schema>;
/** What runs inside `db.transaction(async (tx) => …)`: a handle whose statements are all part of one transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Connections per server instance. A serverless host runs many instances, each with a pool of its own: 20 instances
 * × 5 is already 100 connections, PostgreSQL's default `max_connections`. So keep it small, and on serverless point
 * DATABASE_URL at a transaction pooler (Neon's `-pooler` host, Supabase's pooler on port 6543), which shares a few
 * server connections among all instances. A checkout needs one connection at a time.
 */
const POOL_SIZE = 5;

/**
 * How long a query may take before the shop gives up on it (a checkout is never left hanging). Enforced by `pg` on
 * the client: a `statement_timeout` startup parameter would be refused by transaction poolers (PgBouncer closes the
 * connection: "unsupported startup parameter"). The server-side bound is the role's own setting, which the README's
 * deploy steps ask merchants to set: `alter role <shop user> set statement_timeout = '10s'`.
 */
const QUERY_TIMEOUT_MS = 10_000;

/** Wraps a `pg` pool in Drizzle with the schema's snake_case column names. Tests pass their own pool. */
export function createDb(pool: Pool): Db {
  return drizzle(pool, { schema, casing: "snake_case" });
}

// One pool per process. Kept on globalThis so that `next dev` reloading this module does not open a new pool
// (and leak connections) on every edit.
const cache = globalThis as typeof globalThis & { shopDb?: Db };

/**
 * The process's database, connected on first use from DATABASE_URL.
 * Nothing here depends on a server session (no startup parameters, no session settings or locks, no named prepared
 * statements), so DATABASE_URL may be a transaction pooler. A query on an unreachable database fails within 5 s
 * (connection) or 10 s (query), never hangs a checkout.
 * @throws EnvError when the environment is unusable.
 */
export function getDb(): Db {
  if (!cache.shopDb) {
    const pool = new Pool({
      connectionString: getEnv().DATABASE_URL,
      max: POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      query_timeout: QUERY_TIMEOUT_MS,
      application_name: "shop",
    });
    // An idle connection that the server closes must not crash the process; the pool replaces it.
    pool.on("error", (error) => logger.warn({ event: "db_pool_error", err: error.message }));
    // On Vercel: keeps a suspended instance alive just long enough to close its idle connections, so they are not
    // left open on the database until it times them out. Elsewhere it does nothing.
    if (process.env.VERCEL) attachDatabasePool(pool);
    cache.shopDb = createDb(pool);
  }
  return cache.shopDb;
}
