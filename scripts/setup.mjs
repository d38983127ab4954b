// `npm run setup`: writes .env.development.local (development's settings, which Next.js reads in `next dev` only,
// never in a production build) from .env.example with a freshly generated SESSION_SECRET and the emulator's sandbox
// defaults. Never overwrites an existing file.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const target = process.argv[2] ?? ".env.development.local";
if (existsSync(target)) {
  console.log(`${target} already exists: left untouched. Delete it first to generate a new one.`);
  process.exit(0);
}

const example = readFileSync(".env.example", "utf8");
const secret = randomBytes(32).toString("base64");
const lines = example
  .split("\n")
  .map((line) => (line.startsWith("SESSION_SECRET=") ? `SESSION_SECRET=${secret}` : line));
if (!lines.some((line) => line === `SESSION_SECRET=${secret}`))
  throw new Error(".env.example has no SESSION_SECRET= line");
writeFileSync(target, lines.join("\n"), { mode: 0o600 });
console.log(`Wrote ${target}: a new SESSION_SECRET and the emulator's sandbox credentials.`);
console.log("Next: `npm run dev`, or put your sandbox keys in it and run `npm run doctor`.");
