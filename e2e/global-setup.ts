import {
  migrate,
  startEmbeddedDatabase,
  startEmulator,
  startMailCatcher,
  startPgBouncer,
  startShop,
  stopAll,
} from "../scripts/servers";
import {
  DIRECT_DATABASE_URL,
  EMBEDDED_DATABASE_PORT,
  EMULATOR_PORT,
  MAIL_SMTP_PORT,
  POOLER_PORT,
  SHOP_LOG,
  SHOP_PORT,
  SHOP_URL,
  embedded,
  shopEnv,
  throughPooler,
} from "../playwright.config";

/**
 * The browser tests' servers, started before the run by scripts/servers.ts: the database (a throwaway embedded
 * PostgreSQL unless TEST_DATABASE_URL names one; with E2E_POOLER=1, PgBouncer in transaction mode in front of it),
 * the emulator (sending its signed webhooks to the shop, as the live service does), the migrations as a deploy runs
 * them, a mail catcher (MailDev: the shop's SMTP_URL, its REST API read by the tests), and `next start` of the
 * production build, its output in SHOP_LOG.
 * @returns Playwright's teardown: stops them all and removes the throwaway database's files.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    await stopAll();
    for (const stop of stops.reverse()) await stop();
  };
  try {
    if (embedded) {
      const database = await startEmbeddedDatabase({ port: EMBEDDED_DATABASE_PORT });
      stops.push(() => database.stop());
      if (throughPooler) {
        const pooler = await startPgBouncer({ port: POOLER_PORT, upstreamPort: database.port });
        stops.push(() => pooler.stop());
      }
    }
    await startEmulator({
      port: EMULATOR_PORT,
      env: {
        EMULATOR_WEBHOOK_URL: `${SHOP_URL}/api/payments/webhook`,
        EMULATOR_WEBHOOK_SECRET: shopEnv.PAYMENT_WEBHOOK_SECRET,
      },
    });
    const mail = await startMailCatcher({ smtpPort: MAIL_SMTP_PORT, webPort: MAIL_SMTP_PORT + 1 });
    stops.push(() => mail.stop());
    await migrate(DIRECT_DATABASE_URL);
    await startShop({ port: SHOP_PORT, env: shopEnv, output: { file: SHOP_LOG } });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
