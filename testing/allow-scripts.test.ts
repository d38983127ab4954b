import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * npm runs a dependency's install script only when package.json's `allowScripts` allows it, and warns on every install
 * about one it does not name. Every package of the lockfile that has one is named, allowed or not, on purpose: the
 * platforms' builds of the embedded PostgreSQL included, on whichever machine the lockfile was written.
 */
describe("allowScripts", () => {
  it("names every package in the lockfile that has an install script", () => {
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const { allowScripts } = JSON.parse(readFileSync("package.json", "utf8")) as {
      allowScripts: Record<string, boolean>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect([...new Set(withScripts)].filter((name) => !(name in allowScripts))).toEqual([]);
  });
});
