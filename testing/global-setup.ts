import type { TestProject } from "vitest/node";
import { startEmbeddedDatabase } from "../scripts/servers";

/**
 * Vitest's global setup: the PostgreSQL server of this run. `TEST_DATABASE_URL` names one (any PostgreSQL the
 * caller runs); without it, a throwaway embedded cluster is started for the run and removed afterwards. Each test
 * file then creates a database of its own on it (testing/db.ts).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide("databaseServerUrl", given);
    return undefined;
  }
  const server = await startEmbeddedDatabase();
  project.provide("databaseServerUrl", server.url);
  return () => server.stop();
}
