import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEmulator, type EmulatorOptions } from "./app";
import { defaultMerchants } from "./config";
import { startServer, type RunningServer } from "./server";
import { ORDER, SANDBOX_API, DEMO, setup, submitForm, type TestEmulator } from "./test-helpers";
import type { Delivery } from "./webhooks";

const SECRET = "whsec-test-0123456789";
const SIGNATURE = /^[0-9a-f]{64}$/;

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw bytes, as a shop must verify them. */
  raw: Buffer;
  body: string;
  signature: string | undefined;
  at: number;
}

/** What the shop answers to its n-th webhook (1-based): a status, or "hang" to never answer. */
type Answer = (n: number) => number | "hang";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real HTTP receiver standing in for the shop's webhook route. */
async function startShop(answer: Answer = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers["x-mypay-signature"];
      received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        raw,
        body: raw.toString("utf8"),
        signature: typeof signature === "string" ? signature : undefined,
        at: performance.now(),
      });
      const reply = answer(received.length);
      if (reply !== "hang") res.writeHead(reply, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  closers.push(close);
  return { url: `http://127.0.0.1:${port}/api/payments/webhook`, received, close };
}

/** An emulator whose merchants send webhooks to `url`, with fast retries. */
function emulatorFor(url: string, options: EmulatorOptions = {}) {
  const emulator = setup({
    merchants: defaultMerchants({ webhook: { url, secret: SECRET } }),
    ...options,
    webhooks: { retryBaseMs: 5, timeoutMs: 1000, magicDelayMs: 50, ...options.webhooks },
  });
  closers.push(async () => emulator.state.reset());
  return emulator;
}

/** Creates a payment and presses a button on its gateway page; returns the 303 and the payment token. */
async function complete(
  emulator: TestEmulator,
  body: Record<string, unknown> = ORDER,
  { alias = "sadad", outcome = "pay" } = {},
) {
  const { path, token } = await emulator.payment(body);
  const res = await submitForm(emulator, `${path}/gateway/${alias}/complete`, { outcome });
  return { res, token };
}

async function control(emulator: TestEmulator, method: string, path: string, body?: unknown) {
  const res = await emulator.app.request(`/__emulator${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const deliveries = async (emulator: TestEmulator, query = "") =>
  (await control(emulator, "GET", `/webhooks${query}`)).body.deliveries as Delivery[];

const hmac = (raw: Buffer | string) => createHmac("sha256", SECRET).update(raw).digest("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("payment.success webhook: what is sent", () => {
  it("signs the raw body bytes with HMAC-SHA256 of the merchant's secret, in X-MyPay-Signature", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await complete(emulator, { ...ORDER, custom: "طلب-1001" });

    expect(shop.received).toHaveLength(1);
    const [webhook] = shop.received;
    expect(webhook?.method).toBe("POST");
    expect(webhook?.path).toBe("/api/payments/webhook");
    expect(webhook?.headers["content-type"]).toBe("application/json");
    expect(webhook?.signature).toMatch(SIGNATURE);
    // How a shop verifies it: HMAC over the bytes as received, compared in constant time.
    const expected = Buffer.from(hmac(webhook!.raw), "hex");
    expect(timingSafeEqual(expected, Buffer.from(webhook!.signature!, "hex"))).toBe(true);
    expect(JSON.parse(webhook!.body).custom).toBe("طلب-1001");
  });

  it("sends the documented fields in order: numeric amount, unix timestamp, the gateway paid with", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const before = Math.floor(Date.now() / 1000);
    const { token } = await complete(
      emulator,
      { ...ORDER, amount: "103.75", custom: "order-7" },
      { alias: "moamalat" },
    );

    const raw = shop.received[0]!.body;
    const body = JSON.parse(raw);
    expect(Object.keys(body)).toEqual([
      "event",
      "token",
      "status",
      "gateway",
      "amount",
      "currency",
      "timestamp",
      "transaction_id",
      "custom",
    ]);
    expect(body).toEqual({
      event: "payment.success",
      token,
      status: "success",
      gateway: "moamalat",
      amount: 103.75,
      currency: "LYD",
      timestamp: expect.any(Number),
      transaction_id: expect.stringMatching(/^TXN-[0-9A-F]{16}$/),
      custom: "order-7",
    });
    expect(raw).toContain('"amount":103.75,');
    expect(Number.isInteger(body.timestamp)).toBe(true);
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it("leaves custom out when the create request had none, and gives each payment its own transaction_id", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const withoutCustom = { ...ORDER, custom: undefined };
    await complete(emulator, withoutCustom);
    await complete(emulator, withoutCustom);
    const [first, second] = shop.received.map((webhook) => JSON.parse(webhook.body));
    expect(first).not.toHaveProperty("custom");
    expect(first.amount).toBe(25);
    expect(first.transaction_id).not.toBe(second.transaction_id);
  });

  it("reaches the shop before the customer is redirected back", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const { res, token } = await complete(emulator);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${ORDER.return_url}?type=success&token=${token}`);
    // Nothing was awaited after the redirect: the webhook was already there.
    expect(shop.received).toHaveLength(1);
    expect((await deliveries(emulator))[0]?.state).toBe("delivered");
  });

  it("sends nothing on Decline or Cancel", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    expect((await complete(emulator, ORDER, { outcome: "decline" })).res.status).toBe(303);
    expect((await complete(emulator, ORDER, { outcome: "cancel" })).res.status).toBe(303);
    await sleep(50);
    expect(shop.received).toEqual([]);
    expect(await deliveries(emulator)).toEqual([]);
  });

  it("sends nothing when the merchant has no webhook URL, and leaves queued webhook faults queued", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "drop" });
    const { res } = await complete(emulator);
    expect(res.status).toBe(303);
    expect(await deliveries(emulator)).toEqual([]);
    expect((await control(emulator, "GET", "/faults")).body.faults).toHaveLength(1);
  });

  it("never sends a second webhook for a payment already completed", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const { path } = await emulator.payment();
    await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" });
    expect((await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" })).status).toBe(409);
    expect(shop.received).toHaveLength(1);
  });
});

describe("payment.success webhook: retries", () => {
  it("retries a 500 with exponential backoff and stops at the first 2xx", async () => {
    const shop = await startShop((n) => (n <= 2 ? 500 : 200));
    const emulator = emulatorFor(shop.url, { webhooks: { retryBaseMs: 40 } });
    const { res } = await complete(emulator);
    expect(res.status).toBe(303);

    await vi.waitFor(async () => expect((await deliveries(emulator))[0]?.state).toBe("delivered"), { timeout: 3000 });
    const [delivery] = await deliveries(emulator);
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
    expect(delivery?.nextAttemptAt).toBeNull();
    const [first, second, third] = shop.received;
    expect(new Set(shop.received.map((webhook) => webhook.body)).size).toBe(1);
    expect(new Set(shop.received.map((webhook) => webhook.signature)).size).toBe(1);
    // 40 ms, then 80 ms.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(35);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(75);
    await sleep(200);
    expect(shop.received).toHaveLength(3);
  });

  it("gives up after the last retry and says so", async () => {
    const shop = await startShop(() => 503);
    const emulator = emulatorFor(shop.url, { webhooks: { retries: 3 } });
    await complete(emulator);
    await vi.waitFor(async () => expect((await deliveries(emulator))[0]?.state).toBe("failed"), { timeout: 3000 });
    await sleep(100);
    expect(shop.received).toHaveLength(4);
    expect((await deliveries(emulator))[0]?.attempts.map((attempt) => attempt.status)).toEqual([503, 503, 503, 503]);
  });

  it("waits 1 s before the first retry by default", async () => {
    const shop = await startShop(() => 500);
    const emulator = setup({ merchants: defaultMerchants({ webhook: { url: shop.url, secret: SECRET } }) });
    closers.push(async () => emulator.state.reset());
    const { path } = await emulator.payment();
    const started = Date.now();
    await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" });
    const [delivery] = emulator.state.webhooks.list();
    expect(delivery?.state).toBe("pending");
    const due = Date.parse(delivery!.nextAttemptAt!) - started;
    expect(due).toBeGreaterThanOrEqual(900);
    expect(due).toBeLessThan(2000);
  });

  it("lets a shop that never answers hold the customer no longer than the timeout", async () => {
    const shop = await startShop(() => "hang");
    const emulator = emulatorFor(shop.url, { webhooks: { timeoutMs: 150, retries: 0 } });
    const started = performance.now();
    const { res } = await complete(emulator);
    expect(res.status).toBe(303);
    expect(performance.now() - started).toBeLessThan(1000);
    const [delivery] = await deliveries(emulator);
    expect(delivery?.state).toBe("failed");
    expect(delivery?.attempts[0]).toMatchObject({ status: null, error: "timeout after 150 ms" });
  });

  it("survives a shop that is down: the customer is redirected and the error is recorded", async () => {
    const down = await startShop();
    await down.close();
    const emulator = emulatorFor(down.url, { webhooks: { retries: 1 } });
    const { res } = await complete(emulator);
    expect(res.status).toBe(303);
    await vi.waitFor(async () => expect((await deliveries(emulator))[0]?.state).toBe("failed"), { timeout: 3000 });
    const [delivery] = await deliveries(emulator);
    expect(delivery?.attempts).toHaveLength(2);
    expect(delivery?.attempts[0]?.error).toMatch(/ECONNREFUSED/);
    expect((await control(emulator, "GET", "/health")).status).toBe(200);
  });

  it("logs one line per attempt: method, path and status, never the secret, signature or query", async () => {
    const shop = await startShop((n) => (n === 1 ? 500 : 200));
    const lines: string[] = [];
    const emulator = emulatorFor(`${shop.url}?key=not-for-logs`, { log: (line) => lines.push(line) });
    await complete(emulator);
    await vi.waitFor(() => expect(shop.received).toHaveLength(2), { timeout: 3000 });
    await vi.waitFor(() => expect(lines.filter((line) => line.startsWith("webhook "))).toHaveLength(2));
    const webhookLines = lines.filter((line) => line.startsWith("webhook "));
    expect(webhookLines[0]).toMatch(/^webhook POST \/api\/payments\/webhook 500 \d+ms \(delivery 1, attempt 1; retry/);
    expect(webhookLines[1]).toMatch(/^webhook POST \/api\/payments\/webhook 200 \d+ms \(delivery 1, attempt 2\)$/);
    const everything = lines.join("\n");
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain("not-for-logs");
    expect(everything).not.toContain(shop.received[0]!.signature!);
  });
});

describe("payment.success webhook: faults", () => {
  it("delay: the webhook arrives after the customer is back", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "delay", delayMs: 300 });
    const { res } = await complete(emulator);
    expect(res.status).toBe(303);
    expect(shop.received).toHaveLength(0);
    const [pending] = await deliveries(emulator);
    expect(pending).toMatchObject({ state: "pending", fault: { kind: "delay", delayMs: 300, source: "queue" } });
    expect(pending?.nextAttemptAt).toEqual(expect.any(String));
    await vi.waitFor(() => expect(shop.received).toHaveLength(1), { timeout: 3000 });
    await vi.waitFor(async () => expect((await deliveries(emulator))[0]?.state).toBe("delivered"));
  });

  it("drop: never sent, recorded as dropped", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "drop" });
    await complete(emulator);
    await sleep(50);
    expect(shop.received).toEqual([]);
    const [dropped] = await deliveries(emulator);
    expect(dropped).toMatchObject({ state: "dropped", attempts: [], fault: { kind: "drop", source: "queue" } });
    expect(dropped?.signature).toBe(hmac(dropped!.body));
  });

  it("duplicate: the same body and signature arrive twice before the redirect", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "duplicate" });
    await complete(emulator);
    expect(shop.received).toHaveLength(2);
    const [first, second] = shop.received;
    expect(second?.body).toBe(first?.body);
    expect(second?.signature).toBe(first?.signature);
    expect(first?.signature).toBe(hmac(first!.raw));
    const [copy, original] = await deliveries(emulator);
    expect(copy).toMatchObject({ state: "delivered", duplicateOf: original?.id, fault: { kind: "duplicate" } });
    expect(original).toMatchObject({ state: "delivered", duplicateOf: null });
  });

  it("bad_signature: 64 lowercase hex characters, but not the HMAC of the body", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "bad_signature" });
    await complete(emulator);
    const [webhook] = shop.received;
    expect(webhook?.signature).toMatch(SIGNATURE);
    expect(webhook?.signature).not.toBe(hmac(webhook!.raw));
  });

  it("amount: reports another amount, correctly signed", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "amount", amount: 1.5 });
    await complete(emulator);
    const [webhook] = shop.received;
    expect(JSON.parse(webhook!.body).amount).toBe(1.5);
    expect(webhook?.signature).toBe(hmac(webhook!.raw));
  });

  it("applies to the next `count` payments only", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const added = await control(emulator, "POST", "/faults", { route: "webhook", kind: "drop", count: 2 });
    expect(added.body.fault).toEqual({ id: 1, route: "webhook", kind: "drop", remaining: 2 });
    for (let i = 0; i < 3; i++) await complete(emulator);
    expect((await deliveries(emulator)).map((delivery) => delivery.state)).toEqual(["delivered", "dropped", "dropped"]);
    expect(shop.received).toHaveLength(1);
  });

  it.each([
    [{ route: "webhook", kind: "status" }, /kind/],
    [{ route: "webhook", kind: "foreign_url" }, /kind/],
    [{ route: "create", kind: "duplicate" }, /kind/],
    [{ route: "webhook", kind: "delay" }, /delayMs/],
    [{ route: "webhook", kind: "delay", delayMs: 200_000 }, /delayMs/],
    [{ route: "webhook", kind: "amount" }, /amount/],
    [{ route: "webhook", kind: "amount", amount: "26.00" }, /amount/],
    [{ route: "webhook", kind: "drop", amount: 1 }, /amount/],
    [{ route: "webhook", kind: "drop", status: 500 }, /status/],
    [{ route: "webhook", kind: "drop", count: 0 }, /count/],
  ])("rejects the webhook fault %j with 400", async (body, message) => {
    const res = await control(setup(), "POST", "/faults", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

describe("payment.success webhook: magic values", () => {
  it.each<[string, (delivery: Delivery, received: Received[]) => void]>([
    [
      "sandbox:webhook-drop",
      (delivery, received) => {
        expect(delivery.state).toBe("dropped");
        expect(received).toHaveLength(0);
      },
    ],
    ["sandbox:webhook-duplicate", (_delivery, received) => expect(received).toHaveLength(2)],
    [
      "sandbox:webhook-bad-signature",
      (_delivery, received) => expect(received[0]?.signature).not.toBe(hmac(received[0]!.raw)),
    ],
    ["sandbox:webhook-amount", (_delivery, received) => expect(JSON.parse(received[0]!.body).amount).toBe(104.75)],
  ])("%s in full_name works, and the create call is unaffected", async (magic, check) => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const { res } = await complete(emulator, { ...ORDER, amount: "103.75", full_name: `Salem ${magic}` });
    expect(res.status).toBe(303);
    const [delivery] = await deliveries(emulator);
    expect(delivery?.fault?.source).toBe("magic");
    check(delivery!, shop.received);
  });

  it("sandbox:webhook-delay in custom holds the webhook back (10 s by default)", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await complete(emulator, { ...ORDER, custom: "order-9 sandbox:webhook-delay" });
    expect(shop.received).toHaveLength(0);
    expect((await deliveries(emulator))[0]?.fault).toEqual({ kind: "delay", delayMs: 50, source: "magic" });
    await vi.waitFor(() => expect(shop.received).toHaveLength(1), { timeout: 3000 });

    const defaults = setup({ merchants: defaultMerchants({ webhook: { url: shop.url, secret: SECRET } }) });
    closers.push(async () => defaults.state.reset());
    const { path } = await defaults.payment({ ...ORDER, custom: "sandbox:webhook-delay" });
    await submitForm(defaults, `${path}/gateway/sadad/complete`, { outcome: "pay" });
    expect(defaults.state.webhooks.list()[0]?.fault).toEqual({ kind: "delay", delayMs: 10_000, source: "magic" });
  });

  it("counts a name typed on the payment page", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const { path } = await emulator.payment();
    await submitForm(emulator, `${path}/gateway`, { gateway: "sadad", full_name: "Salem sandbox:webhook-drop" });
    await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" });
    expect((await deliveries(emulator))[0]?.state).toBe("dropped");
  });

  it("a queued fault wins over a magic value", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "duplicate" });
    await complete(emulator, { ...ORDER, full_name: "sandbox:webhook-drop" });
    expect(shop.received).toHaveLength(2);
  });
});

describe("control API: webhooks", () => {
  it("lists deliveries newest first with body, signature, attempts and state; ?token= filters", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    const first = await complete(emulator);
    const second = await complete(emulator);
    const all = await deliveries(emulator);
    expect(all.map((delivery) => delivery.token)).toEqual([second.token, first.token]);
    expect(all[1]).toEqual({
      id: 1,
      token: first.token,
      url: shop.url,
      body: shop.received[0]?.body,
      signature: shop.received[0]?.signature,
      state: "delivered",
      fault: null,
      duplicateOf: null,
      attempts: [
        {
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          status: 200,
          error: null,
          durationMs: expect.any(Number),
          replay: false,
        },
      ],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      nextAttemptAt: null,
    });
    expect((await deliveries(emulator, `?token=${first.token}`)).map((delivery) => delivery.id)).toEqual([1]);
    expect(await deliveries(emulator, "?token=unknown")).toEqual([]);
  });

  it("replays a delivery's exact body and signature and answers with the shop's status", async () => {
    const shop = await startShop((n) => (n === 1 ? 200 : 409));
    const emulator = emulatorFor(shop.url);
    await complete(emulator);
    const replayed = await control(emulator, "POST", "/webhooks/1/replay");
    expect(replayed).toEqual({
      status: 200,
      body: {
        attempt: { at: expect.any(String), status: 409, error: null, durationMs: expect.any(Number), replay: true },
      },
    });
    expect(shop.received).toHaveLength(2);
    expect(shop.received[1]?.body).toBe(shop.received[0]?.body);
    expect(shop.received[1]?.signature).toBe(shop.received[0]?.signature);
    const [delivery] = await deliveries(emulator);
    expect(delivery?.state).toBe("delivered");
    expect(delivery?.attempts.map((attempt) => [attempt.status, attempt.replay])).toEqual([
      [200, false],
      [409, true],
    ]);
  });

  it("replays a dropped delivery too (a late webhook), and answers 404 for an unknown one", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "drop" });
    await complete(emulator);
    expect((await control(emulator, "POST", "/webhooks/1/replay")).body.attempt).toMatchObject({ status: 200 });
    expect(shop.received[0]?.signature).toBe(hmac(shop.received[0]!.raw));
    expect((await control(emulator, "POST", "/webhooks/99/replay")).status).toBe(404);
    expect((await control(emulator, "POST", "/webhooks/abc/replay")).status).toBe(404);
  });

  it("reset clears deliveries and webhook faults and cancels pending retries", async () => {
    const shop = await startShop(() => 500);
    const emulator = emulatorFor(shop.url, { webhooks: { retryBaseMs: 400 } });
    await complete(emulator);
    await control(emulator, "POST", "/faults", { route: "webhook", kind: "drop" });
    expect((await deliveries(emulator))[0]?.state).toBe("pending");

    expect((await control(emulator, "POST", "/reset")).status).toBe(200);
    const sentBeforeReset = shop.received.length;
    expect(await deliveries(emulator)).toEqual([]);
    expect((await control(emulator, "GET", "/faults")).body.faults).toEqual([]);
    await sleep(1000);
    expect(shop.received).toHaveLength(sentBeforeReset);
  });

  it("keeps at most maxDeliveries, forgetting the oldest", async () => {
    const shop = await startShop();
    const emulator = emulatorFor(shop.url, { webhooks: { maxDeliveries: 3 } });
    for (let i = 0; i < 5; i++) await complete(emulator);
    expect((await deliveries(emulator)).map((delivery) => delivery.id)).toEqual([5, 4, 3]);
  });
});

describe("payment.success webhook over real HTTP", () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("token → create → Pay: the shop has the verified webhook when the browser gets the 303", async () => {
    const shop = await startShop();
    const emulator = createEmulator({
      rateLimit: 0,
      merchants: defaultMerchants({ webhook: { url: shop.url, secret: SECRET } }),
    });
    closers.push(async () => emulator.state.reset());
    running = await startServer(emulator.app, { host: "127.0.0.1", port: 0 });
    const url = running.url;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
        body: JSON.stringify(body),
      });

    const tokenRes = await post(`${SANDBOX_API}/authentication/token`, DEMO);
    const accessToken = ((await tokenRes.json()) as { data: { access_token: string } }).data.access_token;
    const createRes = await post(`${SANDBOX_API}/payment/create`, ORDER, { Authorization: `Bearer ${accessToken}` });
    const { data } = (await createRes.json()) as { data: { token: string; payment_url: string } };
    const pay = await fetch(`${url}${new URL(data.payment_url).pathname}/gateway/edfali/complete`, {
      method: "POST",
      body: new URLSearchParams({ outcome: "pay" }),
      redirect: "manual",
    });
    expect(pay.status).toBe(303);
    expect(shop.received).toHaveLength(1);
    const webhook = shop.received[0]!;
    expect(webhook.signature).toBe(hmac(webhook.raw));
    expect(JSON.parse(webhook.body)).toMatchObject({ token: data.token, gateway: "edfali", amount: 25 });

    const listed = (await (await fetch(`${url}/__emulator/webhooks?token=${data.token}`)).json()) as {
      deliveries: Delivery[];
    };
    expect(listed.deliveries[0]).toMatchObject({ state: "delivered", body: webhook.body });
  });
});
