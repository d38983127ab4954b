// Creates the tests' products with their pictures (testing/catalogue.ts) in the migrated database at DATABASE_URL:
// run by `seedTestProducts` (scripts/servers.ts) for the browser tests' template database and the bench's, in a
// process of its own, as the shop's server modules need (`tsx --conditions=react-server`).
import { Pool } from "pg";
import { createDb } from "../lib/db/client";
import { seedTestCatalogue } from "./catalogue";

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
try {
  await seedTestCatalogue(createDb(pool), { pictures: true });
} finally {
  await pool.end();
}
