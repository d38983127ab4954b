import { describe, expect, it } from "vitest";
import { runToCompletion } from "../scripts/servers";
import { tally, verdict } from "./summary.mjs";

/**
 * A failing test fails the command, whichever one a merchant wires into a pre-commit hook or CI. The embedded
 * PostgreSQL's package once turned Vitest's exit code 1 into 0 (its exit hook called `process.exit(0)`): each runner
 * is run here on a deliberately failing test, with a global setup that starts that database, as the suites' do.
 */
describe("a failing test fails the command", () => {
  it("`npm run test:unit` (Vitest, with the suite's global setup) exits 1", async () => {
    const { status, stdout, stderr } = await runToCompletion(
      process.execPath,
      ["node_modules/vitest/vitest.mjs", "run", "--config", "testing/fixtures/vitest.config.ts"],
      { env: { TEST_DATABASE_URL: undefined, CI: "1" }, timeoutMs: 60_000 },
    );
    expect(stdout + stderr).toMatch(/1 failed/);
    expect(status).toBe(1);
  }, 60_000);

  it("`npm run test:e2e` (Playwright, after a global setup that starts the database) exits 1", async () => {
    const { status, stdout, stderr } = await runToCompletion(
      process.execPath,
      ["node_modules/@playwright/test/cli.js", "test", "--config", "testing/fixtures/playwright.config.ts"],
      { env: { CI: "1" }, timeoutMs: 60_000 },
    );
    expect(stdout + stderr).toMatch(/1 failed/);
    expect(status).toBe(1);
  }, 60_000);

  describe("`npm test` and `npm run check` (testing/summary.mjs)", () => {
    it("exit 0 only when every row passed, and say so on the closing line with the wall time", () => {
      expect(verdict([{ name: "unit", passed: 568, failed: 0 }], 272.4)).toEqual({
        line: "568 passed, 0 failed (4 min 32 s)",
        exitCode: 0,
      });
      expect(verdict([{ name: "unit", passed: 567, failed: 1 }], 61)).toEqual({
        line: "567 passed, 1 failed (1 min 1 s)",
        exitCode: 1,
      });
      expect(verdict([], 1).exitCode).toBe(1);
    });

    it("count a runner that exited with an error, or reported nothing, as a failure", () => {
      expect(tally("unit", false, [{ name: "unit", passed: 10, failed: 0 }])).toEqual([
        { name: "unit", passed: 10, failed: 0 },
        { name: "unit: exited with an error", passed: 0, failed: 1 },
      ]);
      expect(tally("browser", false, undefined)).toEqual([{ name: "browser", passed: 0, failed: 1 }]);
      expect(tally("browser", true, [{ name: "browser", passed: 0, failed: 0 }])).toEqual([
        { name: "browser", passed: 0, failed: 1 },
      ]);
      expect(tally("unit", false, [{ name: "unit", passed: 9, failed: 1 }])).toEqual([
        { name: "unit", passed: 9, failed: 1 },
      ]);
    });
  });
});
