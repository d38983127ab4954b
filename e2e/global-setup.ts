import type { FullConfig } from "@playwright/test";
import pg from "pg";
import {
  createDatabase,
  migrate,
  startEmbeddedDatabase,
  startEmulator,
  startMailCatcher,
  startPgBouncer,
  startShop,
  stopAll,
} from "../scripts/servers";
import { DATABASE_PORT, DATABASE_SERVER_URL, FLAVORS, POOLER_PORT, stackFor, type Stack } from "./stacks";

/**
 * The browser tests' servers (e2e/stacks.ts), started before the run by scripts/servers.ts as `npm run dev` and the
 * bench start theirs: a throwaway embedded PostgreSQL and PgBouncer in front of it; a template database migrated as a
 * deploy migrates (`npm run db:migrate`); then, for every worker slot and flavor, a database copied from that
 * template, the emulator (sending its signed webhooks to that stack's shop, as the live service does), a mail catcher
 * and `next start` of the production build.
 * @returns Playwright's teardown: stops them all and removes the throwaway database's files.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    await stopAll();
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const database = await startEmbeddedDatabase({ port: DATABASE_PORT });
    stops.push(() => database.stop());
    const pooler = await startPgBouncer({ port: POOLER_PORT, upstreamPort: DATABASE_PORT });
    stops.push(() => pooler.stop());
    const template = await createDatabase(DATABASE_SERVER_URL, "e2e_template");
    await migrate(template);

    const stacks = FLAVORS.flatMap((flavor) =>
      Array.from({ length: config.workers }, (_, slot) => stackFor(flavor, slot)),
    );
    await Promise.all(
      stacks.map(async (stack) => {
        const mail = await startStack(stack);
        stops.push(() => mail.stop());
      }),
    );
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** One stack: its database (a copy of the migrated template), emulator, mail catcher and shop. */
async function startStack(stack: Stack) {
  const admin = new pg.Client({ connectionString: DATABASE_SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${admin.escapeIdentifier(stack.database)} template e2e_template`);
  } finally {
    await admin.end();
  }
  await startEmulator({
    port: stack.emulatorPort,
    env: {
      EMULATOR_WEBHOOK_URL: `${stack.shopUrl}/api/payments/webhook`,
      EMULATOR_WEBHOOK_SECRET: stack.env.PAYMENT_WEBHOOK_SECRET!,
    },
  });
  const mail = await startMailCatcher({ smtpPort: stack.smtpPort, webPort: Number(new URL(stack.mailInboxUrl).port) });
  await startShop({ port: stack.shopPort, env: stack.env, output: { file: stack.shopLog } });
  return mail;
}
