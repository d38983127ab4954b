// `npm run admin -- create <email>`: creates a back-office admin, or sets a new password for an existing one (which
// signs them out everywhere). The password is asked for without echo, or read from standard input with
// `--password-stdin` (for scripts: `printf '%s' "$PASSWORD" | npm run admin -- create me@shop.ly --password-stdin`).
// Uses DATABASE_URL from the environment, in development also from .env.development.local (the embedded development
// database when unset).
import { parseArgs } from "node:util";
import { Pool } from "pg";
import { read } from "read";
import { z } from "zod";
import { saveAdmin } from "../lib/admin/accounts";
import { MIN_PASSWORD_LENGTH } from "../lib/admin/passwords";
import { createDb } from "../lib/db/client";
import { developmentPort, embeddedDatabaseUrl, withoutPassword } from "../lib/env";
import { loadDevelopmentEnvFiles } from "./env-files";

const USAGE = "Usage: npm run admin -- create <email> [--password-stdin]";
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "password-stdin": { type: "boolean", default: false } },
});
const [command, email] = positionals;
if (command !== "create" || !email) fail(USAGE);
if (!z.email().safeParse(email).success) fail(`"${email}" is not an e-mail address.`);

const production = process.env.NODE_ENV === "production" || Boolean(process.env.VERCEL);
loadDevelopmentEnvFiles(production);
const url =
  process.env.DATABASE_URL || (production ? undefined : embeddedDatabaseUrl(developmentPort("DEV_DATABASE_PORT")));
if (!url) fail("DATABASE_URL is not set: point it at the shop's database (see .env.example).");

const password = values["password-stdin"]
  ? await readStdin()
  : await read({
      prompt: `New password for ${email} (at least ${MIN_PASSWORD_LENGTH} characters): `,
      silent: true,
      replace: "*",
    });
if (password.length < MIN_PASSWORD_LENGTH) fail(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);

const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000 });
try {
  const { created } = await saveAdmin(createDb(pool), email, password);
  console.log(
    `${created ? "Created" : "Set a new password for"} ${email.toLowerCase()} in ${withoutPassword(url)}. Sign in at /admin.`,
  );
} catch (error) {
  fail(
    `Could not save the admin in ${withoutPassword(url)}: ${error instanceof Error ? error.message : String(error)}`,
  );
} finally {
  await pool.end();
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Standard input up to its end, without the final newline. */
async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, "");
}
