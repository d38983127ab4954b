import { execFile, execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { setUpTempFolders } from "../testing/temp-folders";

/**
 * `npm run build` in a folder that holds development's settings and a production env file, with canary values: as a
 * merchant's checkout did, where Next.js read both into the build and copied .env.production, secrets included, into
 * .next/standalone/. The build that ships, the one every browser test runs against, is checked in
 * e2e/security.spec.ts ("nothing secret in the build output").
 */

const tempFolder = setUpTempFolders();
const ROOT = path.resolve(import.meta.dirname, "..");
const CANARIES = {
  ".env.local":
    "SITE_URL=http://localhost:3000\nMERCHANT_LOCALE=ar\nSESSION_SECRET=canary-local-session-secret-0123456789abcdef\n",
  ".env.production":
    "SITE_URL=https://canary.example.ly\nSESSION_SECRET=canary-production-session-secret-0123456789\nPAYMENT_CLIENT_SECRET=canary-production-client-secret\n",
  ".env.development.local": "SESSION_SECRET=canary-development-session-secret-0123456789\n",
};

function folderWith(files: Partial<typeof CANARIES>): string {
  const folder = tempFolder("build-");
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
  return folder;
}

/**
 * The env files Next.js's own loader (@next/env, as Next.js requires it: what `next build`, `next start` and `next dev`
 * call) reads from `folder` for `mode`, in a process of its own.
 */
function filesNextReads(folder: string, mode: "production" | "development"): string[] {
  const script = `
    const { createRequire } = require("node:module");
    const { loadEnvConfig } = createRequire(require.resolve("next/package.json", { paths: [process.argv[1]] }))("@next/env");
    const { loadedEnvFiles } = loadEnvConfig(process.argv[2], process.argv[3] === "development", { info() {}, error() {} });
    console.log(JSON.stringify(loadedEnvFiles.map((file) => file.path)));`;
  const out = execFileSync(process.execPath, ["-e", script, ROOT, folder, mode], {
    env: { PATH: process.env.PATH, NODE_ENV: mode },
    encoding: "utf8",
  });
  return JSON.parse(out) as string[];
}

describe("npm run build beside env files", () => {
  it("refuses to build, naming development's file and the one Next.js would ship, before anything is built", async () => {
    const folder = folderWith({ ".env.local": CANARIES[".env.local"], ".env.production": CANARIES[".env.production"] });
    const failed = await promisify(execFile)(process.execPath, [path.join(ROOT, "scripts/build.mjs")], {
      cwd: folder,
      env: { PATH: process.env.PATH, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    const said = `${failed?.stdout}${failed?.stderr}`;
    expect(said).toContain("Next.js would read .env.local, .env.production from this folder");
    expect(said).toMatch(/✗ \.env\.local: development's settings.*rename it to \.env\.development\.local/);
    expect(said).toMatch(/✗ \.env\.production: Next\.js copies it, secrets included, into \.next\/standalone\//);
    expect(said).not.toContain("canary");
    // Refused before Next.js started: there is no build output at all.
    expect(existsSync(path.join(folder, ".next"))).toBe(false);
  }, 30_000);

  it("leaves development's own file to `next dev`: Next.js's loader reads it for development only", () => {
    const folder = folderWith({ ".env.development.local": CANARIES[".env.development.local"] });
    expect(filesNextReads(folder, "production")).toEqual([]);
    expect(filesNextReads(folder, "development")).toEqual([".env.development.local"]);
  });
});
