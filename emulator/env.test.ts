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
  ])("names %s when it is malformed (%s)", (name, value) => {
    expect(() => configFromEnv({ [name]: value })).toThrow(name);
  });
});
