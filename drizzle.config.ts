import { defineConfig } from "drizzle-kit";

// `npm run db:generate` compares lib/db/schema.ts with the migrations in drizzle/ and writes the next one.
// Applying them is `npm run db:migrate` (lib/db/migrate.ts), never drizzle-kit push.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./drizzle",
  casing: "snake_case",
});
