// `npm run build`: the production build, from production's environment only, with its self-contained server in
// .next/standalone/ (static files and public/ copied in): what `npm start` and a Node host run.
//
// Next.js reads env files from the project's folder in every `next build` — for a production build
// .env.production.local, .env.local, .env.production and .env (the process's own variables win) — and copies .env and
// .env.production, secrets included, into .next/standalone/, whose server reads them again when it starts. A build
// here would so take development's settings (.env.local's SITE_URL becomes the one origin server actions are accepted
// from) and ship production's secrets inside the build output. So this asks Next.js's own loader (@next/env, the
// copy `next build` uses) which files it would read, and refuses to build while there is any, naming each.
// Production's variables come from the environment: Vercel's project settings, or on a Node host a file outside the
// app's folder that the shell and systemd load (docs/deploy/shop.env). Development's settings live in
// .env.development.local, which Next.js reads in `next dev` only.
import { spawnSync } from "node:child_process";
import { cpSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = process.cwd();
// Taken before Next.js's loader runs: it adds what it reads to process.env, and the build gets none of that.
const environment = { ...process.env };

const nextRequire = createRequire(createRequire(import.meta.url).resolve("next/package.json"));
const { loadEnvConfig } = nextRequire("@next/env");
const found = loadEnvConfig(root, false, { info() {}, error: console.error }).loadedEnvFiles.map((file) => file.path);
if (found.length > 0) {
  console.error(
    `npm run build refuses to build: Next.js would read ${found.join(", ")} from this folder into a production build.\n`,
  );
  for (const file of found) console.error(`  ✗ ${file}: ${why(file)}`);
  console.error(
    "\nA production build takes production's variables from its environment only: on Vercel its project settings; on a" +
      "\nNode host a file outside the app's folder, loaded first (`set -a; . /etc/shop/shop.env; set +a`; see" +
      "\ndocs/deploy/shop.env). Development's settings belong in .env.development.local, which only `npm run dev` reads.",
  );
  process.exit(1);
}

/** What is wrong with `file` in a production build's folder, and what to do instead. */
function why(file) {
  if (file === ".env.local")
    return "development's settings, which Next.js also reads into production builds: rename it to .env.development.local";
  if (file === ".env.production" || file === ".env")
    return "Next.js copies it, secrets included, into .next/standalone/: move it out of the app's folder (e.g. /etc/shop/shop.env) and load it into the environment";
  return "read into the build but never shipped with it: move it out of the app's folder (e.g. /etc/shop/shop.env) and load it into the environment";
}

const siteUrl = environment.SITE_URL;
console.log(
  `npm run build: production's environment is this process's; no env file is read (SITE_URL ${siteUrl ? `is ${siteUrl}` : "is not set"}).`,
);
if (!siteUrl && !environment.VERCEL)
  console.warn(
    "  ! SITE_URL is not set: behind a proxy that rewrites Host (nginx's default), the build accepts the checkout's form only from the host the server sees. Set it for the build as for the server.",
  );

const next = nextRequire.resolve("next/dist/bin/next");
const built = spawnSync(process.execPath, [next, "build"], { stdio: "inherit", env: environment });
if (built.status !== 0) process.exit(built.status ?? 1);

// `output: "standalone"` leaves the static files and public/ out: a CDN usually serves them. Here the server does.
const distDir = path.join(root, environment.NEXT_DIST_DIR || ".next");
const standalone = path.join(distDir, "standalone");
cpSync(path.join(root, "public"), path.join(standalone, "public"), { recursive: true });
cpSync(path.join(distDir, "static"), path.join(standalone, path.relative(root, distDir), "static"), {
  recursive: true,
});
console.log(`\nThe server to ship: ${path.relative(root, standalone)}/ (\`npm start\` runs its server.js).`);
