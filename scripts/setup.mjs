// `npm run setup`: writes .env.development.local (development's settings, which Next.js reads in `next dev` only,
// never in a production build) from .env.example with freshly generated secrets (SESSION_SECRET, ORDER_LINK_SECRET)
// and the emulator's sandbox defaults. Never overwrites an existing file.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const target = process.argv[2] ?? ".env.development.local";
if (existsSync(target)) {
  console.log(`${target} already exists: left untouched. Delete it first to generate a new one.`);
  process.exit(0);
}

let lines = readFileSync(".env.example", "utf8").split("\n");
// Each its own key: the session cookie's, and the order links' (changing one never touches the other).
const generated = ["SESSION_SECRET", "ORDER_LINK_SECRET"];
for (const name of generated) {
  const secret = randomBytes(32).toString("base64");
  lines = lines.map((line) => (line.startsWith(`${name}=`) ? `${name}=${secret}` : line));
  if (!lines.includes(`${name}=${secret}`)) throw new Error(`.env.example has no ${name}= line`);
}
writeFileSync(target, lines.join("\n"), { mode: 0o600 });
console.log(`Wrote ${target}: new ${generated.join(" and ")} and the emulator's sandbox credentials.`);
console.log("Next: `npm run dev`, or put your sandbox keys in it and run `npm run doctor`.");
