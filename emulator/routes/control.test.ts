import { describe, expect, it } from "vitest";
import { ConnectionDroppedError } from "../faults";
import { createRateLimiter } from "../rate-limit";
import { DEMO, envelope, ORDER, SANDBOX_API, setup } from "../test-helpers";

const TOKEN_PATH = `${SANDBOX_API}/authentication/token`;

async function control(emulator: ReturnType<typeof setup>, method: string, path: string, body?: unknown) {
  const res = await emulator.app.request(`/__emulator${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("control API: health and unknown routes", () => {
  it("GET /__emulator/health answers { ok: true }", async () => {
    expect(await control(setup(), "GET", "/health")).toEqual({ status: 200, body: { ok: true } });
  });

  it("answers unknown control routes with a JSON 404", async () => {
    expect((await control(setup(), "GET", "/nope")).status).toBe(404);
  });
});

describe("control API: faults", () => {
  it("queues, lists and clears faults", async () => {
    const emulator = setup();
    const added = await control(emulator, "POST", "/faults", { route: "token", kind: "status", status: 503, count: 2 });
    expect(added.status).toBe(201);
    expect(added.body.fault).toEqual({ id: 1, route: "token", kind: "status", status: 503, remaining: 2 });
    await control(emulator, "POST", "/faults", { route: "create", kind: "delay", delayMs: 10 });
    const listed = await control(emulator, "GET", "/faults");
    expect(listed.body.faults).toHaveLength(2);
    expect(await control(emulator, "DELETE", "/faults")).toEqual({ status: 200, body: { cleared: 2 } });
    expect((await control(emulator, "GET", "/faults")).body.faults).toEqual([]);
  });

  it.each([
    [{ route: "refund", kind: "status" }, /route/],
    [{ route: "token", kind: "explode" }, /kind/],
    [{ route: "token", kind: "status", status: 418 }, /status/],
    [{ route: "token", kind: "delay" }, /delayMs/],
    [{ route: "token", kind: "delay", delayMs: -1 }, /delayMs/],
    [{ route: "token", kind: "drop", status: 500 }, /status/],
    [{ route: "token", kind: "status", count: 0 }, /count/],
    [[1, 2], /JSON object/],
  ])("rejects the fault %j with 400", async (body, message) => {
    const res = await control(setup(), "POST", "/faults", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it.each([500, 502, 503])("kind status %i answers the envelope for the next N requests only", async (status) => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "status", status, count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await envelope(await emulator.post(TOKEN_PATH, DEMO));
      expect(res).toMatchObject({ status, message: { code: status }, data: {}, type: "error" });
    }
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(200);
  });

  it("kind status 429 sends Retry-After", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "status", status: 429 });
    const res = await emulator.post(TOKEN_PATH, DEMO);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
  });

  it("status defaults to 500", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "status" });
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(500);
  });

  it("kind html answers an HTML error page", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "html", status: 502 });
    const res = await emulator.post(TOKEN_PATH, DEMO);
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("502 | Bad Gateway");
  });

  it("kind malformed answers 200 application/json that does not parse", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "malformed" });
    const res = await emulator.post(TOKEN_PATH, DEMO);
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
  });

  it("kind foreign_url creates the payment but answers a payment_url on another host (create only)", async () => {
    const emulator = setup();
    expect((await control(emulator, "POST", "/faults", { route: "token", kind: "foreign_url" })).status).toBe(400);
    await control(emulator, "POST", "/faults", { route: "create", kind: "foreign_url" });
    const res = await emulator.create(await emulator.token(), ORDER);
    const body = await envelope(res);
    expect(body.status).toBe(200);
    const url = new URL(body.data.payment_url as string);
    expect(url.origin).toBe("https://attacker.example");
    expect(url.pathname).toBe(`/pay/sandbox/v1/user/payment/preview/${body.data.token as string}`);
    expect(await emulator.payments()).toHaveLength(1);
    const next = await envelope(await emulator.create(await emulator.token(), ORDER));
    expect(new URL(next.data.payment_url as string).origin).not.toBe("https://attacker.example");
  });

  it("kind drop closes the connection (in-process: the request rejects)", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "drop" });
    await expect(emulator.post(TOKEN_PATH, DEMO)).rejects.toBeInstanceOf(ConnectionDroppedError);
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(200);
  });

  it("kind delay waits, then answers normally", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "token", kind: "delay", delayMs: 120 });
    const started = performance.now();
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("applies only to its route, and a create fault does not consume the access token", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/faults", { route: "create", kind: "status", status: 503 });
    const accessToken = await emulator.token();
    expect((await emulator.create(accessToken, ORDER)).status).toBe(503);
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
  });
});

describe("control API: clock and purge", () => {
  it("shows and advances the clock", async () => {
    const emulator = setup();
    const before = await control(emulator, "GET", "/clock");
    expect(before.body).toMatchObject({ offsetSeconds: 0, now: expect.any(String), nowMs: expect.any(Number) });
    const after = await control(emulator, "POST", "/clock", { advanceSeconds: 90 });
    expect(after.body).toMatchObject({ offsetSeconds: 90, purged: { tokens: 0, payments: 0 } });
    expect((after.body.nowMs as number) - (before.body.nowMs as number)).toBeGreaterThanOrEqual(90_000);
  });

  it.each([{ advanceSeconds: -1 }, { advanceSeconds: "60" }, {}])("rejects %j", async (body) => {
    expect((await control(setup(), "POST", "/clock", body)).status).toBe(400);
  });

  it("purges tokens after 600 s and payments 600 s after their page expired", async () => {
    const emulator = setup({ rateLimit: 0 });
    for (let i = 0; i < 5; i++) await emulator.payment();
    await emulator.token(); // a token without payment
    expect(emulator.state.store.tokens.size).toBe(6);
    expect(await emulator.payments()).toHaveLength(5);

    const first = await control(emulator, "POST", "/clock", { advanceSeconds: 601 });
    expect(first.body.purged).toEqual({ tokens: 6, payments: 0 });
    expect(emulator.state.store.tokens.size).toBe(0);
    const expired = await emulator.payments();
    expect(expired.map((p) => p.status)).toEqual(Array(5).fill("expired"));

    const second = await control(emulator, "POST", "/clock", { advanceSeconds: 600 });
    expect(second.body.purged).toEqual({ tokens: 0, payments: 5 });
    expect(await emulator.payments()).toHaveLength(0);
  });

  it("keeps the store bounded as the clock moves (lazy purge on requests)", async () => {
    const emulator = setup({ rateLimit: 0 });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20; i++) await emulator.payment();
      emulator.state.clock.advance(1300);
    }
    await emulator.token(); // triggers the lazy purge
    expect(emulator.state.store.payments.size).toBe(0);
    expect(emulator.state.store.tokens.size).toBe(1);
  });
});

describe("control API: payments", () => {
  it("lists payments with their fields, filters by custom, and shows one by token", async () => {
    const emulator = setup();
    const a = await emulator.payment({ ...ORDER, custom: "A-1", payment_gateway: "sadad" });
    await emulator.payment({ ...ORDER, custom: "B-2" });
    const all = await control(emulator, "GET", "/payments");
    expect(all.body.payments).toHaveLength(2);
    const filtered = await control(emulator, "GET", "/payments?custom=A-1");
    expect(filtered.body.payments).toEqual([
      expect.objectContaining({
        token: a.token,
        status: "pending",
        amount: "25.00",
        currency: "LYD",
        custom: "A-1",
        payment_gateway: "sadad",
        mode: "sandbox",
        merchant: "Demo Shop",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        payment_url: a.paymentUrl,
      }),
    ]);
    // No access token (a JWT: `eyJ…` header, a dot, `eyJ…` payload); a random payment token may hold "eyJ" by chance.
    expect(JSON.stringify(all.body)).not.toMatch(/access_token|fingerprint|eyJ[\w-]*\.eyJ/);
    expect((await control(emulator, "GET", `/payments/${a.token}`)).body.payment).toMatchObject({ custom: "A-1" });
    expect((await control(emulator, "GET", "/payments/unknown")).status).toBe(404);
  });
});

describe("control API: config, rate limit and latency", () => {
  it("limits API requests per client to 60 a minute by default, with 429 and Retry-After", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    for (let i = 0; i < 59; i++) expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
    const limited = await emulator.post(TOKEN_PATH, DEMO);
    expect(await envelope(limited)).toMatchObject({ status: 429, message: { code: 429 }, data: {}, type: "error" });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Pages and the control API are not limited.
    expect((await control(emulator, "GET", "/health")).status).toBe(200);
    emulator.state.clock.advance(60);
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(200);
  });

  it("changes the limit at runtime, 0 disables it", async () => {
    const emulator = setup();
    expect(await control(emulator, "POST", "/config", { rateLimit: 2 })).toEqual({
      status: 200,
      body: { config: { rateLimit: 2, latencyMs: 0, payOnView: false } },
    });
    await emulator.post(TOKEN_PATH, DEMO);
    await emulator.post(TOKEN_PATH, DEMO);
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(429);
    await control(emulator, "POST", "/config", { rateLimit: 0 });
    for (let i = 0; i < 100; i++) expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(200);
  });

  it("adds latencyMs to every API call", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/config", { latencyMs: 100 });
    expect((await control(emulator, "GET", "/config")).body).toEqual({
      config: { rateLimit: 60, latencyMs: 100, payOnView: false },
    });
    const started = performance.now();
    await emulator.post(TOKEN_PATH, DEMO);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it("takes its defaults from the options (environment)", async () => {
    const emulator = setup({ rateLimit: 1, latencyMs: 5 });
    expect((await control(emulator, "GET", "/config")).body).toEqual({
      config: { rateLimit: 1, latencyMs: 5, payOnView: false },
    });
    await emulator.post(TOKEN_PATH, DEMO);
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(429);
  });

  it("payOnView: a payment is paid the moment its page first opens, and stays paid", async () => {
    const emulator = setup();
    await control(emulator, "POST", "/config", { payOnView: true });
    const { token, path } = await emulator.payment({ ...ORDER, payment_gateway: "sadad" });
    const page = await emulator.app.request(path);
    expect(page.status).toBe(200);
    expect(await emulator.payments()).toMatchObject([{ token, status: "paid", gatewayUsed: "sadad" }]);
    expect((await emulator.app.request(path)).status).toBe(200);
    expect(await emulator.payments()).toHaveLength(1);
  });

  it.each([{ rateLimit: -1 }, { rateLimit: 1.5 }, { latencyMs: "10" }, { latencyMs: 1e9 }, { payOnView: "yes" }])(
    "rejects %j",
    async (body) => {
      expect((await control(setup(), "POST", "/config", body)).status).toBe(400);
    },
  );

  it("bounds the number of tracked clients", () => {
    const limiter = createRateLimiter();
    for (let i = 0; i < 25_000; i++) limiter.hit(`10.0.${i}`, 0, 60);
    expect(limiter.size()).toBeLessThanOrEqual(10_000);
    limiter.purge(60_000);
    expect(limiter.size()).toBe(0);
  });
});

describe("control API: reset", () => {
  it("clears payments, tokens, faults, rate-limit counters, clock offset and config", async () => {
    const emulator = setup({ rateLimit: 3 });
    const accessToken = await emulator.token();
    await emulator.create(accessToken, ORDER);
    await control(emulator, "POST", "/faults", { route: "token", kind: "drop" });
    await control(emulator, "POST", "/config", { rateLimit: 50, latencyMs: 1, payOnView: true });
    await control(emulator, "POST", "/clock", { advanceSeconds: 30 });

    expect(await control(emulator, "POST", "/reset")).toEqual({ status: 200, body: { ok: true } });
    expect(await emulator.payments()).toEqual([]);
    expect((await control(emulator, "GET", "/faults")).body.faults).toEqual([]);
    expect((await control(emulator, "GET", "/clock")).body.offsetSeconds).toBe(0);
    expect((await control(emulator, "GET", "/config")).body).toEqual({
      config: { rateLimit: 3, latencyMs: 0, payOnView: false },
    });
    expect(emulator.state.limiter.size()).toBe(0);
    // The old access token is unknown now.
    expect((await emulator.create(accessToken, ORDER)).status).toBe(403);
  });
});
