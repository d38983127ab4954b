import type { FullConfig } from "@playwright/test";
import {
  createAdmin,
  createDatabase,
  migrate,
  portIsFree,
  seedTestProducts,
  startEmbeddedDatabase,
  startEmulator,
  startMailCatcher,
  startSmsCentre,
  startPgBouncer,
  startShop,
  stopAll,
} from "../scripts/servers";
import { databasePort, databaseServerUrl, OWNER, poolerPort, PORTS_PER_RUN, stacksOfRun, type Stack } from "./stacks";

/**
 * The browser tests' servers (e2e/stacks.ts), started before the run by scripts/servers.ts as `npm run dev` and the
 * bench start theirs: a throwaway embedded PostgreSQL and PgBouncer in front of it; a template database migrated as a
 * deploy migrates (`npm run db:migrate`); then, for every stack (a direct one per worker, one through PgBouncer:
 * e2e/stacks.ts's `stacksOfRun`), a database copied from that template and the production build's standalone server (`npm start`). Each
 * stack's emulator (sending its signed webhooks to that stack's shop, as the live service does), mail catcher and SMS
 * centre need no database: they start while it is made.
 * @returns Playwright's teardown: stops them all and removes the throwaway database's files.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    await stopAll();
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    // Passed on to the workers, which Playwright starts after this.
    process.env.E2E_PORT_BASE = String(await freePortBlock());
    const stacks = stacksOfRun(config.workers);
    // Side by side: the stacks' services, and the database (one process, a step at a time, leaves a core free).
    const services = Promise.allSettled(stacks.map((stack) => startServices(stack)));
    try {
      const database = await startEmbeddedDatabase({ port: databasePort() });
      stops.push(() => database.stop());
      const pooler = await startPgBouncer({ port: poolerPort(), upstreamPort: databasePort() });
      stops.push(() => pooler.stop());
      const template = await createDatabase(databaseServerUrl(), "e2e_template");
      await migrate(template);
      // Once, in the template every stack's database is copied from: the tests' products (testing/catalogue.ts), and
      // the shop's owner, made by the admin command as a merchant makes theirs (its hash at full cost).
      await Promise.all([seedTestProducts(template), createAdmin(template, OWNER.email, OWNER.password)]);
    } finally {
      // Every service that started is stopped by the teardown, even when another or the database did not start.
      for (const started of await services) if (started.status === "fulfilled") stops.push(() => started.value.stop());
    }
    const failed = (await services).find((started) => started.status === "rejected");
    if (failed) throw failed.reason;
    await Promise.all(stacks.map((stack) => startShopOf(stack)));
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/**
 * The first of {@link PORTS_PER_RUN} free ports, from TEST_FIRST_PORT (default 5100) on: another run on this machine,
 * or another program, has the block before.
 */
async function freePortBlock(): Promise<number> {
  const given = process.env.TEST_FIRST_PORT?.trim();
  const first = given ? Number(given) : 5100;
  const last = 65_535 - PORTS_PER_RUN;
  if (!/^\d*$/.test(given ?? "") || first < 1024 || first > last)
    throw new Error(`TEST_FIRST_PORT must be a port number from 1024 to ${last}, got "${given}"`);
  for (let base = first; base <= last; base += PORTS_PER_RUN) {
    const ports = Array.from({ length: PORTS_PER_RUN }, (_, i) => base + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return base;
  }
  throw new Error(
    `no block of ${PORTS_PER_RUN} free ports for the browser tests' servers from ${first} (TEST_FIRST_PORT) on`,
  );
}

/** A stack's emulator, mail catcher and SMS centre. @returns what the teardown stops. */
async function startServices(stack: Stack) {
  await startEmulator({
    port: stack.emulatorPort,
    env: {
      EMULATOR_WEBHOOK_URL: `${stack.shopUrl}/api/payments/webhook`,
      EMULATOR_WEBHOOK_SECRET: stack.env.PAYMENT_WEBHOOK_SECRET!,
    },
  });
  const mail = await startMailCatcher({ smtpPort: stack.smtpPort, webPort: Number(new URL(stack.mailInboxUrl).port) });
  const sms = await startSmsCentre({
    smppPort: stack.smppPort,
    webPort: Number(new URL(stack.smsInboxUrl).port),
  }).catch(async (error: unknown) => {
    await mail.stop();
    throw error;
  });
  return { stop: () => Promise.all([mail.stop(), sms.stop()]).then(() => {}) };
}

/** A stack's database (a copy of the migrated template) and its shop. */
async function startShopOf(stack: Stack) {
  await createDatabase(databaseServerUrl(), stack.database, "e2e_template");
  // The tests' request contexts keep a connection to the shop open between calls, and do not resend a post on a
  // connection the server closed as they sent it (ECONNRESET, seen when two calls were Node's default 5 s apart): the
  // shop holds idle connections longer than a test runs, as one behind a load balancer is set to.
  await startShop({
    port: stack.shopPort,
    env: stack.env,
    output: { file: stack.shopLog },
    keepAliveTimeoutMs: 65_000,
  });
}
