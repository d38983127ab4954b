import { Client, Pool } from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase } from "../scripts/servers";
import { createDb, type Db } from "../lib/db/client";

/** A migrated, empty database of its own for one test file, reached through `pg` as in production. */
export interface TestDatabase {
  db: Db;
  pool: Pool;
  /** Its connection string, for a second pool (another "server instance"). */
  url: string;
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
 * A fresh, migrated database on the run's PostgreSQL server (the one of `TEST_DATABASE_URL` when set; CI sets it to
 * Debian's PostgreSQL; else the throwaway embedded cluster that the global setup started): a copy of the template the
 * global setup migrated. Dropped by `close()`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const copy = await newDatabase(inject("migratedTemplate"));
  const pool = new Pool({ connectionString: copy.url, max: 5 });
  // Dropping a test database ends its sessions; an idle client hearing that is not a test failure.
  pool.on("error", () => {});
  return {
    db: createDb(pool),
    pool,
    url: copy.url,
    async close() {
      await pool.end();
      await copy.drop();
    },
  };
}

/** An empty database (no migrations) on the run's PostgreSQL server, and `drop()` to remove it again. */
export function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return newDatabase();
}

/** A database of this run's own, empty or a copy of `template`, and `drop()` to remove it again. */
async function newDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject("databaseServerUrl");
  const name = `shop_test_${process.pid}_${crypto.randomUUID().slice(0, 8)}`;
  const url = await createDatabase(serverUrl, name, template);
  return {
    url,
    async drop() {
      // A client, not a pool: its end() waits for the connection to close, where a pool's returns before. Without
      // FORCE, PostgreSQL waits (up to 5 s) for the database's last connections to close, so those of a pool the test
      // has just ended are not killed mid-close (their pool would throw, with nobody listening); a connection a test
      // left open is ended by force after that.
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        await admin
          .query(`drop database if exists ${name}`)
          .catch(() => admin.query(`drop database if exists ${name} with (force)`));
      } finally {
        await admin.end();
      }
    },
  };
}
