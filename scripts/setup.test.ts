import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../lib/env";
import { setUpTempFolders } from "../testing/temp-folders";

const tempFolder = setUpTempFolders();
const run = (target: string) => execFileSync("node", ["scripts/setup.mjs", target], { encoding: "utf8" });

function readEnvFile(path: string): Record<string, string> {
  const entries = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
  return Object.fromEntries(entries);
}

describe("npm run setup", () => {
  it("writes a usable .env.local with a fresh 32-byte session secret and order links' key, private to the user", () => {
    const target = join(tempFolder("setup-"), ".env.local");
    expect(run(target)).toContain("Wrote");
    const env = readEnvFile(target);
    expect(Buffer.from(env.SESSION_SECRET!, "base64")).toHaveLength(32);
    expect(Buffer.from(env.ORDER_LINK_SECRET!, "base64")).toHaveLength(32);
    expect(env.ORDER_LINK_SECRET).not.toBe(env.SESSION_SECRET);
    expect(() => parseEnv(env, "development")).not.toThrow();
    expect(statSync(target).mode & 0o077).toBe(0);

    const other = join(tempFolder("setup-"), ".env.local");
    run(other);
    expect(readEnvFile(other).SESSION_SECRET).not.toBe(env.SESSION_SECRET);
    expect(readEnvFile(other).ORDER_LINK_SECRET).not.toBe(env.ORDER_LINK_SECRET);
  });

  it("never overwrites an existing file", () => {
    const target = join(tempFolder("setup-"), ".env.local");
    writeFileSync(target, "MINE=1\n");
    expect(run(target)).toContain("left untouched");
    expect(readFileSync(target, "utf8")).toBe("MINE=1\n");
  });
});
