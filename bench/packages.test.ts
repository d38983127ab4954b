import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { setUpTempFolders } from "../testing/temp-folders";
import { ensurePackages, packagesState } from "./packages";

const tempFolder = setUpTempFolders();

/** A package with no dependencies: `npm ci` installs it in a moment, without the registry. */
function emptyPackage(): string {
  const dir = tempFolder("shop-bench-packages-");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "empty", version: "1.0.0", private: true }));
  const lock = {
    name: "empty",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: "empty", version: "1.0.0" } },
  };
  writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock));
  return dir;
}

describe("the bench's own packages, installed on first use", () => {
  it("are missing, then installed from the lockfile, then stale when the lockfile changes", () => {
    const dir = emptyPackage();
    expect(packagesState(dir)).toBe("missing");
    const said: string[] = [];
    ensurePackages(dir, "nothing", (line) => said.push(line));
    expect(said).toEqual([expect.stringContaining("installing nothing into")]);
    expect(packagesState(dir)).toBe("ready");

    ensurePackages(dir, "nothing", (line) => said.push(line));
    expect(said).toHaveLength(1); // ready: npm is not run again

    writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify({ lockfileVersion: 3 })}\n`);
    expect(packagesState(dir)).toBe("stale");
  }, 60_000);

  it("count a node_modules folder without the stamp (an install cut short) as stale", () => {
    const dir = emptyPackage();
    mkdirSync(path.join(dir, "node_modules"));
    expect(packagesState(dir)).toBe("stale");
  });
});
