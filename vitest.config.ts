import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit tests sit beside their module (lib/*.test.ts, emulator/*.test.ts, scripts/*.test.ts, bench/*.test.ts,
// testing/*.test.ts; not testing/fixtures/, which holds a test that fails on purpose).
// Browser tests live in e2e/ and run under Playwright, not here.
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside a React Server environment; in unit tests the modules run on the server anyway.
      "server-only": fileURLToPath(new URL("./testing/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    include: [
      "lib/**/*.test.ts",
      "emulator/**/*.test.ts",
      "scripts/**/*.test.ts",
      "app/**/*.test.ts",
      "bench/**/*.test.ts",
      "testing/*.test.ts",
    ],
    environment: "node",
    // One PostgreSQL server per run; each database suite makes a database of its own on it.
    globalSetup: ["testing/global-setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
  },
});
