import { Pool } from "pg";
import { afterAll, beforeAll } from "vitest";
import { startEmbeddedPostgres } from "../../scripts/embedded-postgres";
import { createDb, type Db } from "../db/client";
import { applyMigrations } from "../db/migrate";

/** A migrated, empty database of its own for one test file, reached through `pg` as in production. */
export interface TestDatabase {
  db: Db;
  pool: Pool;
  /** Its connection string, for a second pool (another "server instance"). */
  url: string;
  /** Which PostgreSQL it is, for test names. */
  kind: "pglite" | "postgresql";
  close(): Promise<void>;
}

/**
 * A fresh database for the test file that calls this: created before its tests, dropped after. The returned object
 * is filled in by `beforeAll`, so read its fields inside tests, not at the file's top level.
 */
export function setUpTestDatabase(): TestDatabase {
  const handle = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(handle, await createTestDatabase());
  }, 30_000);
  afterAll(() => handle.close?.());
  return handle;
}

/**
 * A fresh database: on the PostgreSQL server of `TEST_DATABASE_URL` when set (a new database created there and
 * dropped afterwards; CI sets it), else an in-memory PGlite served over the Postgres wire protocol on a free port (scripts/embedded-postgres.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  return server ? onPostgres(server) : onPglite();
}

async function onPglite(): Promise<TestDatabase> {
  const embedded = await startEmbeddedPostgres();
  const url = embedded.url;
  return migrated(url, "pglite", () => embedded.stop());
}

async function onPostgres(serverUrl: string): Promise<TestDatabase> {
  const admin = new Pool({ connectionString: serverUrl, max: 1 });
  const name = `shop_test_${process.pid}_${crypto.randomUUID().slice(0, 8)}`;
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return migrated(url.href, "postgresql", async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
}

/** A pool on `url` with every migration applied; `close` ends the pool, then runs `dispose`. */
async function migrated(url: string, kind: TestDatabase["kind"], dispose: () => Promise<void>): Promise<TestDatabase> {
  const pool = new Pool({ connectionString: url, max: 5 });
  // Dropping a test database ends its sessions; an idle client hearing that is not a test failure.
  pool.on("error", () => {});
  await applyMigrations(pool);
  return {
    db: createDb(pool),
    pool,
    url,
    kind,
    async close() {
      await pool.end();
      await dispose();
    },
  };
}
