// The browser tests' mail catcher: MailDev (scripts/servers.ts) with its SMTP server on the first port given and its
// inbox and REST API on the second. The shop sends its e-mails there (SMTP_URL in e2e/shop-env.json); the tests read
// them through the REST API (e2e/support.ts, `mailbox`). Started by Playwright as a web server and stopped by it
// with SIGTERM, which stops it and removes the e-mails.
//
//   tsx e2e/mail.ts 4125 4126
import { startMailCatcher } from "../scripts/servers";

const [smtpPort, webPort] = process.argv.slice(2).map(Number);
const catcher = await startMailCatcher({ smtpPort, webPort });
console.log(`[e2e] MailDev: SMTP at ${catcher.smtpUrl}, inbox at ${catcher.inboxUrl}`);

const stop = () => void catcher.stop().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
