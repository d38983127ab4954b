// How `npm test` and `npm run check` (testing/test.mjs) count a run and decide its exit code. Kept apart so that
// testing/exit-code.test.ts can prove it: a failing test always fails the command.

/**
 * The counts of one runner (Vitest, Playwright): what its JSON report says, per group. A runner that exited non-zero
 * without reporting a failing test (it crashed, its configuration is wrong, a global setup failed) counts as one
 * failure, and so does a group with no test at all: "0 passed, 0 failed" is not a pass.
 * @param name the runner's name in the summary. @param ok whether it exited 0. @param groups its report's counts,
 *   `[{ name, passed, failed }]`, or `undefined` when it wrote no report.
 * @returns the rows for the summary.
 */
export function tally(name, ok, groups) {
  const rows = (groups ?? [{ name, passed: 0, failed: 0 }]).map((group) =>
    group.passed + group.failed === 0 ? { ...group, failed: 1 } : { ...group },
  );
  if (!ok && rows.every((row) => row.failed === 0))
    rows.push({ name: `${name}: exited with an error`, passed: 0, failed: 1 });
  return rows;
}

/**
 * The closing line CI reads, `N passed, N failed (M min S s)`, and the exit code: 0 only when nothing failed.
 * @param rows every row of the run. @param seconds the run's wall time.
 */
export function verdict(rows, seconds) {
  const passed = rows.reduce((n, row) => n + row.passed, 0);
  const failed = rows.reduce((n, row) => n + row.failed, 0);
  const whole = Math.round(seconds);
  return {
    line: `${passed} passed, ${failed} failed (${Math.floor(whole / 60)} min ${whole % 60} s)`,
    exitCode: failed === 0 && passed > 0 ? 0 : 1,
  };
}
