import "server-only";
import { attachDatabasePool } from "@vercel/functions";
import { sql } from "drizzle-orm";
import { drizzle, NodePgPreparedQuery, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { getEnv } from "../env";
import { logger } from "../log";
import { describeDbFailure, withoutParameters } from "./errors";
import * as schema from "./schema";

/** The shop's database handle: Drizzle over a `pg` pool, the same driver against every PostgreSQL. */
export type Db = NodePgDatabase<typeof schema>;
/** What runs inside `db.transaction(async (tx) => …)`: a handle whose statements are all part of one transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The database or a transaction on it: what a write that may run inside a caller's transaction accepts. */
export type DbOrTx = Db | Tx;

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
 * connection: "unsupported startup parameter"). The server-side bound is the role's own setting, which
 * docs/deploying.md, "Connections: use the pooler", asks merchants to set: `alter role <shop user> set statement_timeout = '10s'`.
 */
const QUERY_TIMEOUT_MS = 10_000;

/**
 * Wraps a `pg` pool in Drizzle with the schema's snake_case column names. Tests pass their own pool.
 * A failed query throws a `DbQueryError` (./errors.ts): its code and operation, never its parameters.
 */
export function createDb(pool: Pool): Db {
  keepParametersOutOfErrors();
  return drizzle(pool, { schema, casing: "snake_case" });
}

/**
 * Drizzle's error for a failed query quotes its parameters (`Failed query: … params: <e-mail>,<session id>`), and
 * an error nobody catches (a back-office page while the database is down) is printed whole by Next.js: stack,
 * fields, causes. Every query runs through `execute` or `all` of Drizzle's prepared query for `pg`, transactions
 * included, and Drizzle offers no hook for its errors, so those two are wrapped to rethrow the error without its
 * parameters ({@link withoutParameters}). Wrapped once per loaded copy of Drizzle; the wrapper reduces errors with the
 * copy of ./errors.ts loaded last, so that after a `next dev` reload of these modules (or a test file's fresh ones)
 * the errors thrown are the `DbQueryError` the reloaded code knows. Every Drizzle database of the process that uses
 * `pg` gets it.
 */
function keepParametersOutOfErrors(): void {
  const prototype = NodePgPreparedQuery.prototype as unknown as Record<"execute" | "all", Query> &
    Record<symbol, typeof withoutParameters>;
  const wrapped = REDUCE in prototype;
  prototype[REDUCE] = withoutParameters;
  if (wrapped) return;
  for (const method of ["execute", "all"] as const) {
    const query = prototype[method];
    prototype[method] = async function (this: unknown, ...args) {
      try {
        return await query.apply(this, args);
      } catch (error) {
        throw prototype[REDUCE]!(error);
      }
    };
  }
}

type Query = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const REDUCE = Symbol.for("shop.db.withoutParameters");

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
    const pool = createPool(getEnv().DATABASE_URL);
    // On Vercel: keeps a suspended instance alive just long enough to close its idle connections, so they are not
    // left open on the database until it times them out. Elsewhere it does nothing.
    if (process.env.VERCEL) attachDatabasePool(pool);
    cache.shopDb = createDb(pool);
  }
  return cache.shopDb;
}

/**
 * The shop's `pg` pool on `url` (the sizes and timeouts above), whose connections may be dropped without harm: when
 * the server ends one (a restart, a failover, a pooler closing it, `pg_terminate_backend`), its client emits an `error`
 * event, which with nobody listening crashes the process as an `uncaughtException`. Each client's is logged here as a
 * warning (`db_connection_lost`); the pool leaves that client out and opens another, and a query that was running on
 * it fails with its own error, which its caller handles.
 */
export function createPool(url: string): Pool {
  const pool = new Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    query_timeout: QUERY_TIMEOUT_MS,
    application_name: "shop",
  });
  // An idle client's error, which each client's own listener below has logged already: the pool has dropped it.
  pool.on("error", () => {});
  // A client checked out (a transaction between two statements) has only this listener: the pool's is for idle ones.
  pool.on("connect", (client) =>
    client.on("error", (error) => logger.warn({ event: "db_connection_lost", ...describeDbFailure(error) })),
  );
  return pool;
}

/**
 * Whether the database answers a trivial statement now: for a page that must say which of "unavailable" and "back
 * again" is true. Never throws.
 */
export async function databaseAnswers(db: Db = getDb()): Promise<boolean> {
  return db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
}
