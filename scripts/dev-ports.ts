// The ports `npm run dev` (scripts/dev.ts) listens on, each moved by a variable of .env.development.local, and the
// check that runs before anything starts: a port that is taken, two servers given one port, or a setting that points
// at a port nothing will listen on is named with the variable that fixes it, so a run never stops half-way.
import { DEVELOPMENT_PORTS, developmentPort, EnvError, isLoopbackHost, type DevelopmentPortName } from "../lib/env";
import { portIsFree } from "./servers";

/** One server `npm run dev` starts: its port, what it is, and the setting that moves it. */
export interface PlannedPort {
  port: number;
  /** e.g. "the embedded PostgreSQL" */
  server: string;
  /** e.g. "DEV_DATABASE_PORT", or "the port of PAYMENT_API_BASE_URL" */
  setting: string;
}

/** What `npm run dev` starts, on which ports; a server it does not start (its URL is set to another) is absent. */
export interface DevPlan {
  shop: PlannedPort;
  emulator?: PlannedPort;
  database?: PlannedPort;
  smtp?: PlannedPort;
  inbox?: PlannedPort;
  /** The SMS centre's SMPP server and inbox. */
  smpp?: PlannedPort;
  smsInbox?: PlannedPort;
  /** Settings that contradict the ports, each naming the variable to change. */
  problems: string[];
}

/** The port of an http(s) URL on this machine (its scheme's default when it names none), else `undefined`. */
function loopbackPort(value: string | undefined): number | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (!isLoopbackHost(url.hostname)) return undefined;
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}

/**
 * The servers `npm run dev` starts with the settings in `env`, and their ports: the shop always (PORT); the emulator
 * unless PAYMENT_API_BASE_URL names another service (EMULATOR_PORT, else the port of a PAYMENT_API_BASE_URL on this
 * machine); the embedded PostgreSQL unless DATABASE_URL is set (DEV_DATABASE_PORT); the mail catcher unless SMTP_URL
 * is set (MAIL_CATCHER_SMTP_PORT, MAIL_CATCHER_INBOX_PORT); the SMS centre unless SMPP_URL is set
 * (SMS_CENTRE_SMPP_PORT, SMS_CENTRE_INBOX_PORT).
 * @throws EnvError naming every variable that holds no port number.
 */
export function devPlan(env: Record<string, string | undefined>): DevPlan {
  const invalid: string[] = [];
  const planned = (name: DevelopmentPortName): PlannedPort => {
    let port: number = DEVELOPMENT_PORTS[name].port;
    try {
      port = developmentPort(name, env);
    } catch (error) {
      invalid.push(...(error as EnvError).problems);
    }
    return { port, server: DEVELOPMENT_PORTS[name].server, setting: name };
  };
  const problems: string[] = [];
  const shop = planned("PORT");

  let emulator: PlannedPort | undefined;
  const base = env.PAYMENT_API_BASE_URL || undefined;
  const basePort = loopbackPort(base);
  if (!base) emulator = planned("EMULATOR_PORT");
  else if (basePort !== undefined && !env.EMULATOR_PORT?.trim())
    emulator = {
      port: basePort,
      server: DEVELOPMENT_PORTS.EMULATOR_PORT.server,
      setting: "the port of PAYMENT_API_BASE_URL",
    };
  else if (basePort !== undefined) {
    emulator = planned("EMULATOR_PORT");
    if (emulator.port !== basePort)
      problems.push(
        `PAYMENT_API_BASE_URL points at port ${basePort} of this machine, but the emulator listens on ${emulator.port} (EMULATOR_PORT): give both the same port, or remove PAYMENT_API_BASE_URL (it then follows EMULATOR_PORT).`,
      );
  }

  const database = env.DATABASE_URL ? undefined : planned("DEV_DATABASE_PORT");
  const [smtp, inbox] = env.SMTP_URL ? [] : [planned("MAIL_CATCHER_SMTP_PORT"), planned("MAIL_CATCHER_INBOX_PORT")];
  const [smpp, smsInbox] = env.SMPP_URL ? [] : [planned("SMS_CENTRE_SMPP_PORT"), planned("SMS_CENTRE_INBOX_PORT")];
  if (invalid.length > 0) throw new EnvError(invalid);

  const siteUrl = env.SITE_URL || undefined;
  const sitePort = loopbackPort(siteUrl);
  if (sitePort !== undefined && sitePort !== shop.port)
    problems.push(
      `SITE_URL is ${siteUrl}, but the shop listens on ${shop.port} (PORT): customers would come back from the payment page to a port nothing answers. Set SITE_URL to http://localhost:${shop.port}, or remove it (it then follows PORT).`,
    );
  return { shop, emulator, database, smtp, inbox, smpp, smsInbox, problems };
}

/** What to say when `planned`'s port is taken. */
export function portInUseMessage({ port, server, setting }: PlannedPort): string {
  return `Port ${port} is in use (${server}). Set ${setting} in .env.development.local to another port.`;
}

/**
 * Everything in `plan` that stops `npm run dev` before it starts anything: its setting problems, two servers on one
 * port, and each port another program holds (on any address), each naming the variable that moves it.
 * @returns one message a problem; none when every server can start.
 */
export async function devPortProblems(plan: DevPlan): Promise<string[]> {
  const { problems, ...servers } = plan;
  const planned = Object.values(servers).filter((entry): entry is PlannedPort => entry !== undefined);
  const messages = [...problems];
  const first = new Map<number, PlannedPort[]>();
  for (const entry of planned) first.set(entry.port, [...(first.get(entry.port) ?? []), entry]);
  for (const [port, sharing] of first)
    if (sharing.length > 1)
      messages.push(
        `${sharing.map((entry) => entry.setting).join(" and ")} have the same port, ${port}: ${sharing.map((entry) => entry.server).join(" and ")} need one each.`,
      );
  for (const [entry] of first.values()) if (!(await portIsFree(entry!.port))) messages.push(portInUseMessage(entry!));
  return messages;
}
