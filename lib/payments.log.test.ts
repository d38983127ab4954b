import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { newCallContext, PaymentError, requestAccessToken, type CallLogRecord } from "./payments";

/** The server log of a payment service that cannot be reached, as the merchant reads it while fixing the setup. */

/** A port on this machine that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a valid API URL on the wrong port", () => {
  it("logs the host and port it tried and why no answer came, not just `unavailable`", async () => {
    const port = await closedPort();
    const logs: CallLogRecord[] = [];
    const config = {
      baseUrl: `http://127.0.0.1:${port}/pay/sandbox/api/v1`,
      clientId: "id",
      clientSecret: "secret",
      timeoutMs: 1_000,
      log: (r: CallLogRecord) => logs.push(r),
    };
    await expect(requestAccessToken(config, newCallContext())).rejects.toBeInstanceOf(PaymentError);
    expect(logs.length).toBeGreaterThan(0);
    for (const record of logs) {
      expect(record).toMatchObject({
        host: `127.0.0.1:${port}`,
        path: "/authentication/token",
        outcome: "unavailable",
        error: "ECONNREFUSED",
        status: null,
      });
    }
  });

  it("spells out the default port of an https URL", async () => {
    const logs: CallLogRecord[] = [];
    const fetch = (async () => new Response("{}", { status: 503 })) as typeof globalThis.fetch;
    const config = {
      baseUrl: "https://pay.example.ly/pay/api/v1",
      clientId: "id",
      clientSecret: "secret",
      timeoutMs: 200,
      fetch,
      log: (r: CallLogRecord) => logs.push(r),
    };
    await expect(requestAccessToken(config, newCallContext())).rejects.toMatchObject({ kind: "unavailable" });
    expect(logs[0]).toMatchObject({ host: "pay.example.ly:443", status: 503 });
    expect(logs[0]).not.toHaveProperty("error");
  });
});
