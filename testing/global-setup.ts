import pg from "pg";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../lib/db/migrate";
import { createDatabase, startEmbeddedDatabase } from "../scripts/servers";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server the database suites create their databases on. */
    databaseServerUrl: string;
    /** The migrated database on it that each suite's database is a copy of (testing/db.ts). */
    migratedTemplate: string;
  }
}

/**
 * Vitest's global setup: the PostgreSQL server of this run. `TEST_DATABASE_URL` names one (any PostgreSQL the
 * caller runs); without it, a throwaway embedded cluster is started for the run and removed afterwards. The
 * migrations are applied once, to a template database, and each test file gets a copy of it (testing/db.ts): a copy
 * takes a fraction of the time the migrations take, and sixty files each ran them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_DATABASE_URL;
  const server = given ? undefined : await startEmbeddedDatabase();
  const serverUrl = given ?? server!.url;
  // Named for this run: TEST_DATABASE_URL's server may be shared with another run.
  const template = `shop_test_template_${process.pid}`;
  const pool = new pg.Pool({ connectionString: await createDatabase(serverUrl, template), max: 1 });
  try {
    await applyMigrations(pool);
  } finally {
    // A database is copied only while nobody is connected to it.
    await pool.end();
  }
  project.provide("databaseServerUrl", serverUrl);
  project.provide("migratedTemplate", template);
  return async () => {
    // The throwaway cluster goes whole, the template with it.
    if (server) return server.stop();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${template}`);
    } finally {
      await admin.end();
    }
  };
}
