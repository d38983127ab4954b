import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Tests sit beside their module (lib/, app/, components/, emulator/, scripts/, bench/, testing/; not testing/fixtures/, which
// holds tests that fail on purpose). Browser tests live in e2e/ and run under Playwright, not here.
const FOLDERS = ["lib", "app", "components", "emulator", "scripts", "bench", "testing"];
const testFiles = FOLDERS.flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((file) => `${folder}/${file}`)
    .filter((file) => file.endsWith(".test.ts") && !file.startsWith("testing/fixtures/")),
);

/**
 * The database suites: every test file that makes a database of its own (testing/db.ts). They are the `database`
 * project, run by `npm test` (and again on TEST_DATABASE_URL's PostgreSQL). What is neither a database suite nor one
 * of the {@link programSuites} is the `unit` project, which `npm run check` runs before every commit.
 */
const databaseSuites = testFiles.filter((file) => /from "(@\/|(\.\.\/)+)testing\/db"/.test(readFileSync(file, "utf8")));

/**
 * Suites that start programs of their own — an embedded PostgreSQL, the development servers, whole test runs of a
 * failing fixture, dependency-cruiser over made-up trees: the `programs` project, run by `npm test`, kept out of the
 * minute `npm run check` has.
 */
const programSuites = ["scripts/servers.test.ts", "testing/exit-code.test.ts", "testing/import-rules.test.ts"];

/**
 * The longest files first, whichever project they belong to (by their last run's time, else by size). Vitest's own
 * order runs one project's files after the other's, so the three long `programs` files started only when the last
 * database suite had, and ran on at the end while the other cores idled.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const key = (file: TestSpecification) => `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
    const weight = (file: TestSpecification) =>
      cache.getFileTestResults(key(file))?.duration ?? cache.getFileStats(key(file))?.size ?? 0;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside a React Server environment; in unit tests the modules run on the server anyway.
      "server-only": fileURLToPath(new URL("./testing/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    pool: "forks",
    // A worker keeps the libraries it loaded (Next.js, Drizzle, zod…) from one test file to the next, instead of
    // loading them again for each of the seventy files: about a third of the suite's CPU. Our own modules are still
    // fresh for every file (testing/fresh-modules.ts).
    isolate: false,
    setupFiles: ["testing/fresh-modules.ts"],
    sequence: { sequencer: LongestFirst },
    // Most test files wait on PostgreSQL or a child process as much as they compute, so two files per core keep the
    // cores busy. Vitest's default, one fewer than the cores, is a single worker on a 2-core machine: 143 s for the
    // suite there, against 77 s with four.
    maxWorkers: 2 * availableParallelism(),
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: testFiles.filter((file) => !databaseSuites.includes(file) && !programSuites.includes(file)),
        },
      },
      { extends: true, test: { name: "programs", include: programSuites } },
      {
        extends: true,
        test: {
          name: "database",
          include: databaseSuites,
          // One PostgreSQL server per run; each database suite makes a database of its own on it.
          globalSetup: ["testing/global-setup.ts"],
        },
      },
    ],
  },
});
