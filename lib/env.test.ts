import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEVELOPMENT_ORDER_LINK_SECRET,
  DEVELOPMENT_SESSION_SECRET,
  DEVELOPMENT_WEBHOOK_SECRET,
  developmentPort,
  emailSettings,
  embeddedDatabaseUrl,
  EMULATOR_CREDENTIALS,
  emulatorApiBase,
  EnvError,
  parseEnv,
  senderDomain,
  smsSettings,
  withoutPassword,
} from "./env";
import { logger } from "./log";

const production = {
  PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/api/v1/",
  PAYMENT_CLIENT_ID: "client-123",
  PAYMENT_CLIENT_SECRET: "secret-456",
  SESSION_SECRET: "s".repeat(32),
  ORDER_LINK_SECRET: "o".repeat(32),
  SITE_URL: "https://shop.example.ly",
  DATABASE_URL: "postgresql://shop:secret@db.example.ly:5432/shop",
  PAYMENT_WEBHOOK_SECRET: "whsec-0123456789abcdef",
  CRON_SECRET: "cron-0123456789abcdef",
};

function problems(source: Record<string, string | undefined>, mode = "production"): string[] {
  try {
    parseEnv(source, mode);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
}

describe("parseEnv", () => {
  it("falls back to the emulator in development when the payment variables are unset", () => {
    const env = parseEnv({}, "development");
    expect(env.usingEmulatorDefaults).toBe(true);
    expect(env.PAYMENT_API_BASE_URL).toBe("http://127.0.0.1:4010/pay/sandbox/api/v1");
    expect(env).toMatchObject(EMULATOR_CREDENTIALS);
    expect(env.SITE_URL).toBe("http://localhost:3000");
    expect(env.PAYMENT_GATEWAYS.length).toBe(7);
  });

  it("keeps the emulator's sandbox credentials for an emulator on any port of this machine, never for a real service", () => {
    const moved = "http://localhost:4110/pay/sandbox/api/v1";
    expect(parseEnv({ PAYMENT_API_BASE_URL: moved }, "development")).toMatchObject({
      PAYMENT_API_BASE_URL: moved,
      ...EMULATOR_CREDENTIALS,
      usingEmulatorDefaults: true,
    });
    expect(parseEnv({ PAYMENT_API_BASE_URL: "http://127.0.0.1:4110/pay/sandbox/api/v1" }, "test")).toMatchObject(
      EMULATOR_CREDENTIALS,
    );
    // A real service's URL needs the merchant's own keys, as does production with any URL.
    expect(problems({ PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/sandbox/api/v1" }, "development")).toEqual([
      "PAYMENT_CLIENT_ID is missing: set it in the shop's environment (see .env.example)",
      "PAYMENT_CLIENT_SECRET is missing: set it in the shop's environment (see .env.example)",
    ]);
    expect(problems({ ...production, PAYMENT_CLIENT_ID: undefined, PAYMENT_API_BASE_URL: moved })).toContain(
      "PAYMENT_CLIENT_ID is missing: set it in the shop's environment (see .env.example)",
    );
    // Keys of one's own are used as given, also against the emulator.
    const own = { PAYMENT_API_BASE_URL: moved, PAYMENT_CLIENT_ID: "sandbox-prepaid-client-id" };
    expect(problems(own, "development")).toEqual([
      "PAYMENT_CLIENT_SECRET is missing: set it in the shop's environment (see .env.example)",
    ]);
  });

  it("follows the development ports: the emulator on EMULATOR_PORT, the shop on PORT, the database on DEV_DATABASE_PORT", () => {
    const ports = { EMULATOR_PORT: "4110", PORT: "3100", DEV_DATABASE_PORT: "55432" };
    expect(parseEnv(ports, "development")).toMatchObject({
      PAYMENT_API_BASE_URL: emulatorApiBase(4110),
      SITE_URL: "http://localhost:3100",
      DATABASE_URL: embeddedDatabaseUrl(55432),
      ...EMULATOR_CREDENTIALS,
    });
    expect(problems({ DEV_DATABASE_PORT: "5432x" }, "development")).toEqual([
      'DEV_DATABASE_PORT must be a port number from 1 to 65535, got "5432x"',
    ]);
    // Production reads none of them: its variables are set in full.
    expect(parseEnv({ ...production, PORT: "not a port" }, "production").SITE_URL).toBe("https://shop.example.ly");
  });

  it("reads each development port from its variable, its default when unset or empty, and names a bad one", () => {
    expect(developmentPort("MAIL_CATCHER_SMTP_PORT", {})).toBe(4025);
    expect(developmentPort("MAIL_CATCHER_INBOX_PORT", { MAIL_CATCHER_INBOX_PORT: " " })).toBe(4026);
    expect(developmentPort("DEV_DATABASE_PORT", { DEV_DATABASE_PORT: " 55432 " })).toBe(55432);
    for (const bad of ["0", "65536", "12.5", "-1", "port"])
      expect(() => developmentPort("MAIL_CATCHER_SMTP_PORT", { MAIL_CATCHER_SMTP_PORT: bad })).toThrow(
        `MAIL_CATCHER_SMTP_PORT must be a port number from 1 to 65535, got "${bad}"`,
      );
  });

  it("reads TRUSTED_PROXY_HOPS as a small whole number, 0 when unset, and says what it means when it is not one", () => {
    expect(parseEnv(production, "production").TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnv({ ...production, TRUSTED_PROXY_HOPS: "1" }, "production").TRUSTED_PROXY_HOPS).toBe(1);
    expect(problems({ ...production, TRUSTED_PROXY_HOPS: "nginx" })).toEqual([
      "TRUSTED_PROXY_HOPS must be a number: how many reverse proxies of yours stand in front of the shop",
    ]);
    expect(problems({ ...production, TRUSTED_PROXY_HOPS: "9" })).toEqual(["TRUSTED_PROXY_HOPS must be at most 5"]);
  });

  it("reads PAYMENTS_PER_ADDRESS from the environment: 10 when unset, a clear message when it is not a count", () => {
    expect(parseEnv(production, "production").PAYMENTS_PER_ADDRESS).toBe(10);
    expect(parseEnv({ ...production, PAYMENTS_PER_ADDRESS: "250" }, "production").PAYMENTS_PER_ADDRESS).toBe(250);
    expect(parseEnv({ PAYMENTS_PER_ADDRESS: "40" }, "development").PAYMENTS_PER_ADDRESS).toBe(40);
    expect(problems({ ...production, PAYMENTS_PER_ADDRESS: "0" })).toEqual(["PAYMENTS_PER_ADDRESS must be at least 1"]);
  });

  it("reads the cash orders' budgets from the environment: 2 per phone and 5 per address when unset", () => {
    const env = parseEnv(production, "production");
    expect([env.CASH_ORDERS_PER_PHONE, env.CASH_ORDERS_PER_ADDRESS]).toEqual([2, 5]);
    expect(parseEnv({ ...production, CASH_ORDERS_PER_PHONE: "3" }, "production").CASH_ORDERS_PER_PHONE).toBe(3);
    expect(problems({ ...production, CASH_ORDERS_PER_ADDRESS: "0" })).toEqual([
      "CASH_ORDERS_PER_ADDRESS must be at least 1",
    ]);
  });

  it("reads HELD_UNITS_PER_ADDRESS from the environment: 10 when unset, a clear message when it is not a count", () => {
    expect(parseEnv(production, "production").HELD_UNITS_PER_ADDRESS).toBe(10);
    expect(parseEnv({ ...production, HELD_UNITS_PER_ADDRESS: "40" }, "production").HELD_UNITS_PER_ADDRESS).toBe(40);
    expect(problems({ ...production, HELD_UNITS_PER_ADDRESS: "0" })).toEqual([
      "HELD_UNITS_PER_ADDRESS must be at least 1",
    ]);
    expect(problems({ ...production, HELD_UNITS_PER_ADDRESS: "many" })).toEqual([
      "HELD_UNITS_PER_ADDRESS must be a number: units of counted stock one client address's open checkouts may hold",
    ]);
  });

  it("uses the embedded database in development when DATABASE_URL is unset, never in production", () => {
    const env = parseEnv({}, "development");
    expect(env.usingEmbeddedDatabase).toBe(true);
    expect(env.DATABASE_URL).toBe("postgresql://postgres:postgres@127.0.0.1:54320/postgres");
    expect(parseEnv({ DATABASE_URL: "postgres://me@localhost/shop" }, "development").usingEmbeddedDatabase).toBe(false);
    expect(parseEnv(production, "production").usingEmbeddedDatabase).toBe(false);
  });

  it("reads the e-mail settings: SMTP_URL, MAIL_FROM, MERCHANT_EMAIL and MERCHANT_LOCALE, each with a plain message", () => {
    const mail = {
      SMTP_URL: "smtp://apikey:p%40ss@smtp.example.com:587",
      MAIL_FROM: "Medina Market <orders@shop.example.ly>",
      MERCHANT_EMAIL: "owner@shop.example.ly",
    };
    expect(parseEnv({ ...production, ...mail }, "production")).toMatchObject({ ...mail, MERCHANT_LOCALE: "en" });
    expect(parseEnv({ ...production, ...mail, MERCHANT_LOCALE: "ar" }, "production").MERCHANT_LOCALE).toBe("ar");
    expect(problems({ ...production, ...mail, SMTP_URL: "https://smtp.example.com" })).toEqual([
      "SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@smtp.example.com:587 (user and password URL-encoded)",
    ]);
    expect(problems({ ...production, ...mail, MAIL_FROM: "orders at shop" })).toEqual([
      'MAIL_FROM must be one address, optionally with a name: "Medina Market <orders@shop.example.ly>"',
    ]);
    expect(problems({ ...production, ...mail, MAIL_FROM: "a@shop.ly, b@shop.ly" })).toHaveLength(1);
    expect(problems({ ...production, ...mail, MERCHANT_EMAIL: "owner" })).toEqual([
      "MERCHANT_EMAIL must be one e-mail address, such as owner@shop.example.ly",
    ]);
    expect(problems({ ...production, ...mail, MERCHANT_LOCALE: "fr" })).toEqual([
      "MERCHANT_LOCALE must be en or ar: the language of the merchant's e-mails",
    ]);
    // A production shop with SMTP needs a sender; without a merchant address it starts, but says who hears nothing.
    expect(problems({ ...production, ...mail, MAIL_FROM: undefined })[0]).toMatch(/^MAIL_FROM is missing/);
    expect(parseEnv({ ...production, ...mail, MERCHANT_EMAIL: undefined }, "production").warnings.join()).toMatch(
      /MERCHANT_EMAIL is not set: customers get receipts, but nobody is told of new paid orders/,
    );
  });

  it("starts without SMTP_URL (e-mail off); development has a sender and a merchant for the mail catcher", () => {
    expect(parseEnv(production, "production")).toMatchObject({ SMTP_URL: undefined, warnings: [] });
    expect(parseEnv({}, "development")).toMatchObject({
      MAIL_FROM: "Medina Market <shop@example.com>",
      MERCHANT_EMAIL: "merchant@example.com",
    });
  });

  it("reads the SMS settings: SMPP_URL, SMPP_SYSTEM_ID, SMPP_PASSWORD and SMS_SENDER_NAME, each with a plain message", () => {
    const sms = {
      SMPP_URL: "ssmpp://smpp.example.ly:3550",
      SMPP_SYSTEM_ID: "medina",
      SMPP_PASSWORD: "s3cret",
      SMS_SENDER_NAME: "MedinaShop",
    };
    expect(smsSettings(parseEnv({ ...production, ...sms }, "production"))).toMatchObject({
      smppUrl: "ssmpp://smpp.example.ly:3550",
      systemId: "medina",
      password: "s3cret",
      senderName: "MedinaShop",
    });
    expect(smsSettings(parseEnv(production, "production"))).toBeNull(); // unset: text messages are off
    expect(problems({ ...production, ...sms, SMPP_URL: "https://smpp.example.ly" })).toEqual([
      "SMPP_URL must be an smpp:// or ssmpp:// (TLS) URL of your SMS provider's SMPP server, such as ssmpp://smpp.example.ly:3550",
    ]);
    expect(problems({ ...production, ...sms, SMPP_PASSWORD: "much-too-long" })).toEqual([
      "SMPP_PASSWORD must be at most 8 characters, as SMPP 3.4 allows",
    ]);
    expect(problems({ ...production, ...sms, SMS_SENDER_NAME: "Medina Market Shop" })[0]).toMatch(
      /^SMS_SENDER_NAME must be the sender name your provider registered/,
    );
    expect(problems({ ...production, ...sms, SMS_SENDER_NAME: "سوق" })).toHaveLength(1);
    expect(problems({ ...production, ...sms, SMPP_SYSTEM_ID: undefined })[0]).toMatch(/^SMPP_SYSTEM_ID is missing/);
    expect(problems({ ...production, ...sms, SMS_SENDER_NAME: undefined })[0]).toMatch(/^SMS_SENDER_NAME is missing/);
    expect(parseEnv({ SMPP_URL: "smpp://127.0.0.1:4027" }, "development")).toMatchObject({
      SMPP_SYSTEM_ID: "medina-dev",
      SMS_SENDER_NAME: "Medina",
    });
  });

  it("warns in production when the expiry job has no CRON_SECRET", () => {
    expect(parseEnv({ ...production, CRON_SECRET: undefined }, "production").warnings.join()).toMatch(
      /CRON_SECRET is not set/,
    );
    expect(parseEnv(production, "production").warnings).toEqual([]);
  });

  it("gives development and tests an order links' key of their own, refused in production", () => {
    expect(parseEnv({}, "development").ORDER_LINK_SECRET).toBe(DEVELOPMENT_ORDER_LINK_SECRET);
    expect(parseEnv({}, "test").ORDER_LINK_SECRET).toBe(DEVELOPMENT_ORDER_LINK_SECRET);
    expect(problems({ ...production, ORDER_LINK_SECRET: undefined })).toEqual([
      "ORDER_LINK_SECRET is missing: set it in the shop's environment (see .env.example)",
    ]);
  });

  it("gives development the webhook secret it shares with the emulator", () => {
    expect(parseEnv({}, "development").PAYMENT_WEBHOOK_SECRET).toBe(DEVELOPMENT_WEBHOOK_SECRET);
  });

  it("never prints a database password", () => {
    expect(withoutPassword("postgresql://shop:s3cret@db.example.ly:5432/shop")).toBe(
      "postgresql://shop:***@db.example.ly:5432/shop",
    );
  });

  it("accepts a production configuration and normalises the base URL", () => {
    const env = parseEnv(production, "production");
    expect(env.PAYMENT_API_BASE_URL).toBe("https://pay.example.ly/pay/api/v1");
    expect(env.usingEmulatorDefaults).toBe(false);
    expect(env.warnings).toEqual([]);
  });

  it("requires every variable in production, naming each", () => {
    const found = problems({});
    for (const name of [
      "PAYMENT_API_BASE_URL",
      "PAYMENT_CLIENT_ID",
      "PAYMENT_CLIENT_SECRET",
      "SESSION_SECRET",
      "ORDER_LINK_SECRET",
      "SITE_URL",
      "DATABASE_URL",
      "PAYMENT_WEBHOOK_SECRET",
    ]) {
      expect(
        found.some((p) => p.startsWith(`${name} is missing`)),
        name,
      ).toBe(true);
    }
  });

  it.each([
    ["PAYMENT_CLIENT_ID", "", "PAYMENT_CLIENT_ID is empty"],
    ["PAYMENT_CLIENT_SECRET", " secret ", "PAYMENT_CLIENT_SECRET has leading or trailing spaces"],
    ["PAYMENT_CLIENT_SECRET", "<your-client-secret>", "PAYMENT_CLIENT_SECRET still holds a placeholder"],
    ["SESSION_SECRET", "short", "SESSION_SECRET must be at least 32 characters"],
    ["ORDER_LINK_SECRET", "o".repeat(31), "ORDER_LINK_SECRET must be at least 32 characters"],
    ["ORDER_LINK_SECRET", "", "ORDER_LINK_SECRET is empty"],
    ["ORDER_LINK_SECRET", "replace-me-with-openssl-rand-base64-32", "ORDER_LINK_SECRET still holds a placeholder"],
    ["ORDER_LINK_SECRET", DEVELOPMENT_ORDER_LINK_SECRET, "ORDER_LINK_SECRET is the development default"],
    ["PAYMENT_API_BASE_URL", "pay.example.ly/pay/api/v1", "PAYMENT_API_BASE_URL must be an absolute URL"],
    ["PAYMENT_API_BASE_URL", "http://pay.example.ly/pay/api/v1", "PAYMENT_API_BASE_URL uses http://"],
    [
      "PAYMENT_API_BASE_URL",
      "https://pay.example.ly/pay",
      "PAYMENT_API_BASE_URL must be the API base ending in /api/v1",
    ],
    ["SITE_URL", "https://shop.example.ly/store", "SITE_URL must be an origin only"],
    ["PAYMENT_GATEWAYS", "sadad,Not An Alias", "PAYMENT_GATEWAYS:"],
    ["DATABASE_URL", "mysql://shop@db.example.ly/shop", "DATABASE_URL must be a PostgreSQL connection string"],
    ["DATABASE_URL", "db.example.ly:5432", "DATABASE_URL must be a PostgreSQL connection string"],
    ["PAYMENT_WEBHOOK_SECRET", "short", "PAYMENT_WEBHOOK_SECRET must be at least 16 characters"],
    ["PAYMENT_WEBHOOK_SECRET", DEVELOPMENT_WEBHOOK_SECRET, "PAYMENT_WEBHOOK_SECRET is the development default"],
    ["CRON_SECRET", "short", "CRON_SECRET must be at least 16 characters"],
  ])("refuses %s=%j", (name, value, message) => {
    const found = problems({ ...production, [name]: value });
    expect(
      found.some((p) => p.startsWith(message)),
      found.join("\n"),
    ).toBe(true);
  });

  it("names every problem at once, development secrets in production included, with the warnings and what it could read", () => {
    const error = (() => {
      try {
        parseEnv(
          {
            ...production,
            PAYMENT_CLIENT_ID: undefined,
            SESSION_SECRET: DEVELOPMENT_SESSION_SECRET,
            CRON_SECRET: undefined,
          },
          "production",
        );
      } catch (thrown) {
        return thrown as EnvError;
      }
    })();
    expect(error?.problems).toEqual([
      "PAYMENT_CLIENT_ID is missing: set it in the shop's environment (see .env.example)",
      "SESSION_SECRET is the development default: generate a new one with `openssl rand -base64 32`",
    ]);
    expect(error?.warnings).toEqual([expect.stringMatching(/^CRON_SECRET is not set/)]);
    expect(error?.readable).toMatchObject({
      DATABASE_URL: production.DATABASE_URL,
      PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/api/v1",
    });
    expect(error?.readable).not.toHaveProperty("PAYMENT_CLIENT_ID");
  });

  it("allows plain http on loopback (the emulator) and warns about a loopback SITE_URL in production", () => {
    const env = parseEnv(
      {
        ...production,
        PAYMENT_API_BASE_URL: "http://127.0.0.1:4010/pay/sandbox/api/v1",
        SITE_URL: "http://localhost:3000",
      },
      "production",
    );
    expect(env.warnings.join()).toMatch(/loopback/);
  });

  describe("on Vercel, without SITE_URL", () => {
    // What Vercel sets on each deployment (docs: "System environment variables").
    const vercel = {
      VERCEL: "1",
      VERCEL_PROJECT_PRODUCTION_URL: "shop.example.ly",
      VERCEL_BRANCH_URL: "medina-git-new-checkout-acme.vercel.app",
      VERCEL_URL: "medina-4f2k9x1ab-acme.vercel.app",
    };
    const siteUrl = (extra: Record<string, string | undefined>) =>
      parseEnv({ ...production, SITE_URL: undefined, ...extra }, "production").SITE_URL;

    it("gives a preview its own URL: the branch's, else the deployment's", () => {
      expect(siteUrl({ ...vercel, VERCEL_ENV: "preview" })).toBe("https://medina-git-new-checkout-acme.vercel.app");
      expect(siteUrl({ ...vercel, VERCEL_ENV: "preview", VERCEL_BRANCH_URL: undefined })).toBe(
        "https://medina-4f2k9x1ab-acme.vercel.app",
      );
    });

    it("gives production its domain, and `vercel dev` development's default", () => {
      expect(siteUrl({ ...vercel, VERCEL_ENV: "production" })).toBe("https://shop.example.ly");
      expect(parseEnv({ ...vercel, VERCEL_ENV: "development" }, "development").SITE_URL).toBe("http://localhost:3000");
    });

    it("keeps an explicit SITE_URL, and warns when a preview's is production's domain", () => {
      const preview = parseEnv({ ...production, ...vercel, VERCEL_ENV: "preview" }, "production");
      expect(preview.SITE_URL).toBe("https://shop.example.ly");
      expect(preview.warnings).toEqual([
        expect.stringMatching(/^SITE_URL is set to the production domain on a preview/),
      ]);
      expect(parseEnv({ ...production, ...vercel, VERCEL_ENV: "production" }, "production").warnings).toEqual([]);
    });
  });

  it("parses PAYMENT_GATEWAYS with display names", () => {
    const env = parseEnv({ ...production, PAYMENT_GATEWAYS: "sadad, prepaid-card, my-bank=My Bank" }, "production");
    expect(env.PAYMENT_GATEWAYS).toEqual([
      { alias: "sadad", name: "Sadad" },
      { alias: "prepaid-card", name: "Prepaid card" },
      { alias: "my-bank", name: "My Bank" },
    ]);
  });
});

describe("getEnv", () => {
  // The process's record of printed notices (lib/env.ts), emptied so this test starts as a fresh process does.
  const forgetPrinted = () =>
    (globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for("shop.config.printed")]?.clear();
  beforeEach(forgetPrinted);
  afterEach(() => {
    forgetPrinted();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("logs its configuration notices once per process, however many bundles load the module", async () => {
    for (const name of [
      "PAYMENT_API_BASE_URL",
      "PAYMENT_CLIENT_ID",
      "PAYMENT_CLIENT_SECRET",
      "DATABASE_URL",
      "SMTP_URL",
    ])
      vi.stubEnv(name, undefined);
    vi.stubEnv("NODE_ENV", "development");
    // The process's one logger (lib/log.ts), which every bundle's copy of lib/env.ts logs through.
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    // Next.js gives the instrumentation, the proxy and the pages a module instance each: three fresh imports.
    const configs = [];
    for (let bundle = 0; bundle < 3; bundle++) {
      vi.resetModules();
      configs.push((await import("./env")).getEnv());
    }
    expect(info.mock.calls.map(([fields, text]) => [fields, String(text).slice(0, 31)])).toEqual([
      [{ event: "config" }, "PAYMENT_CLIENT_ID and PAYMENT_C"],
      [{ event: "config" }, "DATABASE_URL is not set: using "],
      [{ event: "config" }, "SMTP_URL is not set: e-mail is "],
    ]);
    expect(configs[2]).toEqual(configs[0]);
  });
});

describe("emailSettings", () => {
  it("is null (e-mail off) without SMTP_URL, and the environment's settings with it", () => {
    expect(emailSettings(parseEnv({}, "development"))).toBeNull();
    const settings = emailSettings(
      parseEnv(
        { SMTP_URL: "smtp://127.0.0.1:4025", MERCHANT_LOCALE: "ar", SITE_URL: "http://localhost:3000" },
        "development",
      ),
    );
    expect(settings).toEqual({
      smtpUrl: "smtp://127.0.0.1:4025",
      from: "Medina Market <shop@example.com>",
      merchantEmail: "merchant@example.com",
      merchantLocale: "ar",
      siteUrl: "http://localhost:3000",
    });
    expect(senderDomain(settings!)).toBe("example.com");
  });
});
