import { describe, expect, it } from "vitest";
import { configFromEnv } from "./env";

describe("configFromEnv", () => {
  it("defaults to 127.0.0.1:4010, 60 requests a minute, no latency, the built-in credentials", () => {
    const config = configFromEnv({});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 4010,
      quiet: false,
      options: { publicUrl: "http://127.0.0.1:4010", rateLimit: 60, latencyMs: 0 },
    });
    expect(config.options.merchants?.map((m) => m.keys.sandbox.clientId)).toEqual([
      "sandbox-demo-client-id",
      "sandbox-prepaid-client-id",
    ]);
  });

  it("reads every variable", () => {
    const config = configFromEnv({
      EMULATOR_HOST: "0.0.0.0",
      EMULATOR_PORT: "5000",
      EMULATOR_PUBLIC_URL: "https://pay.test",
      EMULATOR_RATE_LIMIT: "0",
      EMULATOR_LATENCY_MS: "250",
      EMULATOR_QUIET: "1",
      EMULATOR_CLIENT_ID: "id-1",
      EMULATOR_CLIENT_SECRET: "secret-1",
      EMULATOR_PREPAID_CLIENT_ID: "id-2",
      EMULATOR_PREPAID_CLIENT_SECRET: "secret-2",
    });
    expect(config).toMatchObject({
      host: "0.0.0.0",
      port: 5000,
      quiet: true,
      options: { publicUrl: "https://pay.test", rateLimit: 0, latencyMs: 250 },
    });
    const [demo, prepaid] = config.options.merchants ?? [];
    expect(demo?.keys.sandbox).toEqual({ clientId: "id-1", clientSecret: "secret-1" });
    expect(demo?.keys.production.clientId).toBe("live-demo-client-id");
    expect(prepaid?.keys.sandbox).toEqual({ clientId: "id-2", clientSecret: "secret-2" });
  });

  it("sends no webhooks by default", () => {
    expect(configFromEnv({}).options.merchants?.map((m) => m.webhook)).toEqual([null, null]);
  });

  it("gives both merchants the webhook URL and secret", () => {
    const config = configFromEnv({
      EMULATOR_WEBHOOK_URL: "http://127.0.0.1:3000/api/payments/webhook",
      EMULATOR_WEBHOOK_SECRET: " whsec-1 ",
    });
    const webhook = { url: "http://127.0.0.1:3000/api/payments/webhook", secret: "whsec-1" };
    expect(config.options.merchants?.map((m) => m.webhook)).toEqual([webhook, webhook]);
  });

  it("treats a blank variable as unset", () => {
    expect(configFromEnv({ EMULATOR_PORT: " ", EMULATOR_WEBHOOK_URL: "" })).toMatchObject({ port: 4010 });
  });

  it("derives the public URL from the port", () => {
    expect(configFromEnv({ EMULATOR_PORT: "4999" }).options.publicUrl).toBe("http://127.0.0.1:4999");
  });

  it.each([
    ["EMULATOR_PORT", "abc"],
    ["EMULATOR_PORT", "70000"],
    ["EMULATOR_RATE_LIMIT", "-1"],
    ["EMULATOR_LATENCY_MS", "1.5"],
    ["EMULATOR_PUBLIC_URL", "localhost:4010"],
    ["EMULATOR_PUBLIC_URL", "http://127.0.0.1:4010/pay"],
    ["EMULATOR_WEBHOOK_URL", "127.0.0.1:3000/api/payments/webhook"],
    ["EMULATOR_WEBHOOK_URL", "ftp://shop.test/webhook"],
  ])("names %s when it is malformed (%s)", (name, value) => {
    expect(() => configFromEnv({ [name]: value, EMULATOR_WEBHOOK_SECRET: "s" })).toThrow(name);
  });

  it("says what is wrong, with the value", () => {
    expect(() => configFromEnv({ EMULATOR_PORT: "abc" })).toThrow(
      'EMULATOR_PORT must be a whole number from 0 to 65535, got "abc".',
    );
    expect(() =>
      configFromEnv({ EMULATOR_WEBHOOK_URL: "/api/payments/webhook", EMULATOR_WEBHOOK_SECRET: "s" }),
    ).toThrow(/^EMULATOR_WEBHOOK_URL must be an absolute http\(s\) URL/);
  });

  it("refuses a webhook URL without a secret, naming the secret", () => {
    expect(() => configFromEnv({ EMULATOR_WEBHOOK_URL: "http://127.0.0.1:3000/api/payments/webhook" })).toThrow(
      /^EMULATOR_WEBHOOK_SECRET must be set when EMULATOR_WEBHOOK_URL is/,
    );
  });

  it("reports every malformed variable at once", () => {
    expect(() => configFromEnv({ EMULATOR_PORT: "x", EMULATOR_LATENCY_MS: "y" })).toThrow(
      /EMULATOR_PORT .*\nEMULATOR_LATENCY_MS /,
    );
  });
});
