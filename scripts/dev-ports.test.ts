import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { devPlan, devPortProblems } from "./dev-ports";
import { freePort } from "./servers";

/** Every port `npm run dev` uses, moved, as a developer's .env.development.local would. */
const moved = {
  PORT: "3100",
  EMULATOR_PORT: "4110",
  DEV_DATABASE_PORT: "55432",
  MAIL_CATCHER_SMTP_PORT: "4125",
  MAIL_CATCHER_INBOX_PORT: "4126",
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Holds `port` on every address, as another program would (`nc -l`). */
async function occupy(port: number): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ port }, resolve));
}

describe("npm run dev's ports", () => {
  it("are the defaults with no settings, and each follows its variable", () => {
    const ports = (plan: ReturnType<typeof devPlan>) =>
      [plan.shop, plan.emulator, plan.database, plan.smtp, plan.inbox].map((entry) => entry?.port);
    expect(ports(devPlan({}))).toEqual([3000, 4010, 54320, 4025, 4026]);
    expect(ports(devPlan(moved))).toEqual([3100, 4110, 55432, 4125, 4126]);
    expect(devPlan(moved).problems).toEqual([]);
  });

  it("leave out the servers whose URL is set to another, and follow a PAYMENT_API_BASE_URL on this machine", () => {
    const own = devPlan({
      DATABASE_URL: "postgresql://me@db.example.ly/shop",
      SMTP_URL: "smtp://user:pass@smtp.example.com:587",
      PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/sandbox/api/v1",
    });
    expect([own.emulator, own.database, own.smtp, own.inbox]).toEqual([undefined, undefined, undefined, undefined]);
    expect(devPlan({}).smpp?.port).toBe(4027);
    expect(devPlan({ SMS_CENTRE_INBOX_PORT: "4128" }).smsInbox?.port).toBe(4128);
    expect(devPlan({ SMPP_URL: "ssmpp://smpp.example.ly:3550" })).toMatchObject({
      smpp: undefined,
      smsInbox: undefined,
    });
    expect(devPlan({ PAYMENT_API_BASE_URL: "http://localhost:4210/pay/sandbox/api/v1" }).emulator).toEqual({
      port: 4210,
      server: "the payment service emulator",
      setting: "the port of PAYMENT_API_BASE_URL",
    });
  });

  it("name the variable of a value that is no port, and of settings that point where nothing will listen", () => {
    expect(() => devPlan({ DEV_DATABASE_PORT: "fifty" })).toThrow(
      'DEV_DATABASE_PORT must be a port number from 1 to 65535, got "fifty"',
    );
    expect(
      devPlan({
        ...moved,
        SITE_URL: "http://localhost:3000",
        PAYMENT_API_BASE_URL: "http://127.0.0.1:4010/pay/sandbox/api/v1",
      }).problems,
    ).toEqual([
      "PAYMENT_API_BASE_URL points at port 4010 of this machine, but the emulator listens on 4110 (EMULATOR_PORT): give both the same port, or remove PAYMENT_API_BASE_URL (it then follows EMULATOR_PORT).",
      "SITE_URL is http://localhost:3000, but the shop listens on 3100 (PORT): customers would come back from the payment page to a port nothing answers. Set SITE_URL to http://localhost:3100, or remove it (it then follows PORT).",
    ]);
  });

  it("name a port that is taken with the variable that moves it, every one before anything starts", async () => {
    const [database, inbox, shop, emulator, smtp] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const settings = {
      PORT: String(shop),
      EMULATOR_PORT: String(emulator),
      DEV_DATABASE_PORT: String(database),
      MAIL_CATCHER_SMTP_PORT: String(smtp),
      MAIL_CATCHER_INBOX_PORT: String(inbox),
    };
    expect(await devPortProblems(devPlan(settings))).toEqual([]);
    await occupy(database);
    await occupy(inbox);
    expect(await devPortProblems(devPlan(settings))).toEqual([
      `Port ${database} is in use (the embedded PostgreSQL). Set DEV_DATABASE_PORT in .env.development.local to another port.`,
      `Port ${inbox} is in use (the mail catcher's inbox). Set MAIL_CATCHER_INBOX_PORT in .env.development.local to another port.`,
    ]);
  });

  it("refuse two servers on one port", async () => {
    expect(await devPortProblems(devPlan({ ...moved, MAIL_CATCHER_INBOX_PORT: "4110" }))).toContain(
      "EMULATOR_PORT and MAIL_CATCHER_INBOX_PORT have the same port, 4110: the payment service emulator and the mail catcher's inbox need one each.",
    );
  });
});
