import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * Folders of one test file's own under the system's temporary folder, removed with all they hold once the file's
 * tests have run (call it at the file's top level, as `setUpTestDatabase`). Left behind, each run added a few dozen
 * to /tmp: a doctor's working folder, an SMS centre's inbox, a setup's `.env.local`.
 * @returns `make(prefix)`, which creates one (`<tmp>/<prefix>XXXXXX`) and returns its path.
 */
export function setUpTempFolders(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => made.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
  return (prefix) => {
    const folder = mkdtempSync(path.join(tmpdir(), prefix));
    made.push(folder);
    return folder;
  };
}
