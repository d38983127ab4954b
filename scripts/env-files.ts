// The env file the commands read in development: .env.development.local (`npm run setup` writes it). Next.js reads it
// in `next dev` only, never in a production build or server, so development's settings cannot reach production.
// Production's variables come from the environment (Vercel's settings; on a Node host a file outside the app's
// folder, docs/deploy/shop.env), and `npm run build` refuses to build beside any env file Next.js would read.
import { existsSync } from "node:fs";

/** Development's settings file, in the folder the command runs in. */
export const DEVELOPMENT_ENV_FILE = ".env.development.local";
/** Its name before: Next.js reads .env.local into production builds too, so `npm run build` refuses it. */
const OLD_DEVELOPMENT_ENV_FILE = ".env.local";

/**
 * Development's settings into `process.env` (a variable already set wins), or nothing for `production`: production
 * reads its environment only. A `.env.local` of earlier versions is read too, with a notice to rename it.
 * @returns the files read, in order, for the command to name.
 */
export function loadDevelopmentEnvFiles(production: boolean): string[] {
  if (production) return [];
  const read = [DEVELOPMENT_ENV_FILE, OLD_DEVELOPMENT_ENV_FILE].filter((file) => existsSync(file));
  for (const file of read) process.loadEnvFile(file);
  if (read.includes(OLD_DEVELOPMENT_ENV_FILE))
    console.warn(
      `! ${OLD_DEVELOPMENT_ENV_FILE} is read, but rename it to ${DEVELOPMENT_ENV_FILE}: Next.js reads ${OLD_DEVELOPMENT_ENV_FILE} into production builds too, so \`npm run build\` refuses to build beside it.`,
    );
  return read;
}
