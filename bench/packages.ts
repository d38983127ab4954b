// The bench's own packages (bench/package.json: Lighthouse and chrome-launcher, about 185 MB with their trees), kept
// out of the root install because only `npm run bench` uses them. `npm run bench` installs them into
// bench/node_modules on first use, and again when bench/package-lock.json has changed since; everything else the
// bench imports (the shop's modules, pg, Next.js…) resolves to the root's node_modules, one folder up.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Written into node_modules after an install succeeds: the hash of the lockfile it was installed from. */
const STAMP = "node_modules/.installed-from-lockfile";

const lockfileHash = (dir: string) =>
  createHash("sha256")
    .update(readFileSync(path.join(dir, "package-lock.json")))
    .digest("hex");

/** Whether `dir`'s packages are installed from its lockfile as it is now: never, from another version of it, or yes. */
export function packagesState(dir: string): "missing" | "stale" | "ready" {
  if (!existsSync(path.join(dir, "node_modules"))) return "missing";
  const stamp = path.join(dir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === lockfileHash(dir) ? "ready" : "stale";
}

/**
 * Installs `dir`'s packages exactly as its lockfile says (`npm ci`), unless they already are; says what it does.
 * An install cut short leaves no stamp, so the next run installs again.
 * @throws when npm fails (no registry, a full disk), naming the command to run by hand.
 */
export function ensurePackages(dir: string, what: string, log: (line: string) => void = console.log): void {
  const state = packagesState(dir);
  if (state === "ready") return;
  const folder = path.relative(process.cwd(), dir) || ".";
  log(
    state === "missing"
      ? `▶ installing ${what} into ${folder}/node_modules (npm ci, once: the root install leaves them out)`
      : `▶ ${folder}/package-lock.json changed since ${folder}/node_modules was installed: installing ${what} again (npm ci)`,
  );
  // The npm that runs this script (`npm run bench`), else the one on the PATH.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, "ci", "--no-fund"]] : ["npm", ["ci", "--no-fund"]];
  const { status, error } = spawnSync(command, args, { cwd: dir, stdio: "inherit" });
  if (status !== 0)
    throw new Error(
      `could not install ${what} (${error?.message ?? `npm ci exited with ${status}`}): run \`npm ci --prefix ${folder}\` and try again`,
    );
  mkdirSync(path.join(dir, "node_modules"), { recursive: true }); // npm makes none for a package without dependencies
  writeFileSync(path.join(dir, STAMP), `${lockfileHash(dir)}\n`);
}
