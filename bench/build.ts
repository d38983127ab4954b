// The bench's two production builds: the shop into .next-bench/ (never disturbing .next of the tests or a dev
// server), and the baseline app (bench/baseline/) into .next-bench-baseline/.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../scripts/servers";

/** The shop's build folder (next.config.mjs reads NEXT_DIST_DIR). */
export const DIST_DIR = ".next-bench";
/**
 * Where the baseline app is copied and built: a dot-folder of its own, which git, ESLint and tsc leave alone (and not
 * inside .next-bench, which the shop's `next build` empties).
 */
export const BASELINE_DIR = path.join(ROOT, ".next-bench-baseline");
const BASELINE_SOURCE = path.join(ROOT, "bench/baseline");

/** tsconfig.json as Next.js rewrote it, with the build folder's entries taken out, for comparison with the original. */
const withoutDistDir = (content: string) => {
  const config = JSON.parse(content) as { include?: string[] };
  config.include = config.include?.filter((entry) => !entry.startsWith(`${DIST_DIR}/`));
  return JSON.stringify(config);
};

function nextBuild(cwd: string, env: Record<string, string>, what: string) {
  console.log(`▶ next build (${what})`);
  const bin = existsSync(path.join(cwd, "node_modules/next/dist/bin/next"))
    ? "node_modules/next/dist/bin/next"
    : path.join(ROOT, "node_modules/next/dist/bin/next");
  const { status } = spawnSync(process.execPath, [bin, "build"], {
    cwd,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  if (status !== 0) throw new Error(`next build of ${what} failed (exit ${status})`);
}

/**
 * `npm run build`'s script (scripts/build.mjs) for the shop into `.next-bench` with `env` (the bench's configuration):
 * the standalone server with its static files, which `startShop` runs. For a build in another folder
 * Next.js rewrites `tsconfig.json` (adds `.next-bench/types/**` to `include`, reformats) and `next-env.d.ts` (imports
 * `./.next-bench/types/…`). `next-env.d.ts` (generated, not in git) is put back as it was. `tsconfig.json` is put back
 * byte for byte when the build's entries are all that changed; if someone edited it during the build, it is left
 * alone and a warning says what to remove.
 */
export function buildShop(env: Record<string, string>): void {
  const tsconfig = path.join(ROOT, "tsconfig.json");
  const nextEnv = path.join(ROOT, "next-env.d.ts");
  const before = {
    tsconfig: readFileSync(tsconfig, "utf8"),
    nextEnv: existsSync(nextEnv) ? readFileSync(nextEnv, "utf8") : undefined,
  };
  try {
    console.log(`▶ npm run build (the shop, into ${DIST_DIR}/)`);
    const { status } = spawnSync(process.execPath, ["scripts/build.mjs"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env, NEXT_DIST_DIR: DIST_DIR },
    });
    if (status !== 0) throw new Error(`npm run build of the shop into ${DIST_DIR}/ failed (exit ${status})`);
  } finally {
    if (before.nextEnv !== undefined) writeFileSync(nextEnv, before.nextEnv);
    const now = readFileSync(tsconfig, "utf8");
    if (now !== before.tsconfig) {
      let same = false;
      try {
        same = withoutDistDir(now) === JSON.stringify(JSON.parse(before.tsconfig));
      } catch {
        same = false;
      }
      if (same) writeFileSync(tsconfig, before.tsconfig);
      else console.warn(`⚠ tsconfig.json changed during the build: remove any "${DIST_DIR}" entries from it by hand.`);
    }
  }
}

/**
 * The baseline app: bench/baseline/ copied into .next-bench-baseline/ with a hard-linked copy of the
 * project's node_modules (the same Next.js and React, file for file; no disk space), then `next build` there.
 * Turbopack's root is that folder (see the baseline's next.config.mjs), so nothing of the shop is compiled into it.
 */
export function buildBaseline(): void {
  rmSync(BASELINE_DIR, { recursive: true, force: true });
  mkdirSync(BASELINE_DIR, { recursive: true });
  cpSync(BASELINE_SOURCE, BASELINE_DIR, { recursive: true });
  const link = spawnSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(BASELINE_DIR, "node_modules")], {
    stdio: "inherit",
  });
  if (link.status !== 0) throw new Error("could not hard-link node_modules into the baseline app's folder (cp -al)");
  nextBuild(BASELINE_DIR, {}, "the baseline app, into .next-bench-baseline/");
}

/** Whether both builds exist (for `--no-build`). */
export function buildsExist(): string | null {
  if (!existsSync(path.join(ROOT, DIST_DIR, "standalone", DIST_DIR, "static")))
    return `no shop build in ${DIST_DIR}/: run without --no-build first`;
  if (!existsSync(path.join(BASELINE_DIR, ".next/BUILD_ID")))
    return `no baseline build in ${path.relative(ROOT, BASELINE_DIR)}/: run without --no-build first`;
  return null;
}

/**
 * The shop's production build in `.next/`, whose standalone server `bench:pooling`, `bench:dashboard` and
 * `bench:storefront` start (`startShop`): made first when there is none (`npm run build`, for the public origin the browser tests build for),
 * so each runs from a fresh clone. An existing build is used as it is.
 */
export function ensureShopBuild(): void {
  if (existsSync(path.join(ROOT, ".next/standalone/.next/static"))) return;
  console.log("▶ No production build in .next/: npm run build (SITE_URL=https://localhost:4443, as npm test builds)");
  const { status } = spawnSync("npm", ["run", "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SITE_URL: "https://localhost:4443" },
  });
  if (status !== 0) throw new Error(`npm run build failed (exit ${status})`);
}
