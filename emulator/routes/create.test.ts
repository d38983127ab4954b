import { describe, expect, it } from "vitest";
import { GATEWAYS, PREPAID_ALIAS } from "../config";
import { ConnectionDroppedError } from "../faults";
import { createEmulator } from "../app";
import { DEMO, envelope, LIVE_DEMO, ORDER, PREPAID, PRODUCTION_API, SANDBOX_API, setup } from "../test-helpers";

const CONFLICT =
  "A payment is already initialised for this access token. Please request a new authentication token for each order.";

describe("POST /payment/create: states and idempotency (spec 3, 4.2 rules 1-3)", () => {
  it("creates a pending payment on the first call and answers CREATED with token and payment_url", async () => {
    const emulator = setup();
    const res = await emulator.create(await emulator.token(), ORDER);
    const body = await envelope(res);
    expect(body).toEqual({
      status: 200,
      message: { code: 200, success: ["CREATED"] },
      data: { token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), payment_url: expect.any(String) },
      type: "success",
    });
    expect(body.data.payment_url).toBe(
      `http://127.0.0.1:4010/pay/sandbox/v1/user/payment/preview/${body.data.token as string}`,
    );
    const [payment] = await emulator.payments();
    expect(payment).toMatchObject({ token: body.data.token, status: "pending", amount: "25.00", currency: "LYD" });
  });

  it("answers an identical repeat with the same token and payment_url, key order ignored", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    const first = await envelope(await emulator.create(accessToken, ORDER));
    const reordered = Object.fromEntries(Object.entries(ORDER).reverse());
    const second = await envelope(await emulator.create(accessToken, reordered));
    expect(second.status).toBe(200);
    expect(second.data).toEqual(first.data);
    expect(await emulator.payments()).toHaveLength(1);
  });

  it("answers a changed body on the same access token with 409 and leaves the payment unchanged", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    const first = await envelope(await emulator.create(accessToken, ORDER));
    const changed = await envelope(await emulator.create(accessToken, { ...ORDER, amount: "30.00" }));
    expect(changed).toEqual({ status: 409, message: { code: 409, error: [CONFLICT] }, data: {}, type: "error" });
    const payments = await emulator.payments();
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ token: first.data.token, status: "pending", amount: "25.00" });
  });

  it("treats an added optional field as a changed body (409)", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    await emulator.create(accessToken, ORDER);
    expect((await emulator.create(accessToken, { ...ORDER, email: "a@b.ly" })).status).toBe(409);
  });

  it("creates one payment per access token", async () => {
    const emulator = setup();
    const a = await emulator.payment();
    const b = await emulator.payment();
    expect(a.token).not.toBe(b.token);
    expect(await emulator.payments()).toHaveLength(2);
  });
});

describe("POST /payment/create: URL shapes per environment (spec 4.2, 9)", () => {
  it("puts /sandbox/ in the payment_url of the sandbox base", async () => {
    const { paymentUrl, token } = await setup().payment();
    expect(new URL(paymentUrl).pathname).toBe(`/pay/sandbox/v1/user/payment/preview/${token}`);
    expect(paymentUrl).toContain("/sandbox/");
  });

  it("uses /pay/v1/user/payment/preview/<token> for the production base", async () => {
    const { paymentUrl, token } = await setup().payment(ORDER, LIVE_DEMO, PRODUCTION_API);
    expect(new URL(paymentUrl).pathname).toBe(`/pay/v1/user/payment/preview/${token}`);
    expect(paymentUrl).not.toContain("/sandbox/");
  });

  it("builds payment_url on the configured public URL", async () => {
    const { paymentUrl } = await setup({ publicUrl: "https://pay.example.test/" }).payment();
    expect(paymentUrl).toMatch(/^https:\/\/pay\.example\.test\/pay\/sandbox\/v1\/user\/payment\/preview\//);
  });
});

describe("POST /payment/create: bearer (gateway notes)", () => {
  const cases: Array<[string, Record<string, string>, number, string]> = [
    ["no Authorization header", {}, 403, "Access denied! Token not found"],
    ["a Basic Authorization header", { Authorization: "Basic abc" }, 403, "Access denied! Token not found"],
    ["an empty bearer", { Authorization: "Bearer " }, 403, "Access denied! Token not found"],
    ["a garbage bearer", { Authorization: "Bearer not-a-token" }, 403, "Requested with invalid token!"],
  ];
  it.each(cases)("answers %s with %i", async (_case, headers, status, message) => {
    const emulator = setup();
    const res = await emulator.post(`${SANDBOX_API}/payment/create`, ORDER, headers);
    expect(await envelope(res)).toEqual({
      status,
      message: { code: status, error: [message] },
      data: {},
      type: "error",
    });
  });

  it("answers a token with a bad signature or from another emulator with 403 invalid", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    const tampered = `${accessToken.slice(0, -4)}AAAA`;
    expect((await envelope(await emulator.create(tampered, ORDER))).message.error).toEqual([
      "Requested with invalid token!",
    ]);
    const foreign = await setup().token();
    const res = await envelope(await emulator.create(foreign, ORDER));
    expect(res.status).toBe(403);
    expect(res.message.error).toEqual(["Requested with invalid token!"]);
  });

  it("answers a token of the other mode with 403 invalid", async () => {
    const emulator = setup();
    const sandboxToken = await emulator.token();
    expect((await emulator.create(sandboxToken, ORDER, { base: PRODUCTION_API })).status).toBe(403);
    const productionToken = await emulator.token(LIVE_DEMO, PRODUCTION_API);
    expect((await emulator.create(productionToken, ORDER)).status).toBe(403);
  });

  it("answers a token older than 600 s with 401 'Request token is expired'", async () => {
    // Real time stands still, on a whole second: `iat` is in whole seconds, so a clock that also moved with real time
    // could cross the 600th second between two steps of a busy machine.
    const frozen = Math.floor(Date.now() / 1000) * 1000;
    const emulator = setup({ now: () => frozen });
    const accessToken = await emulator.token();
    emulator.state.clock.advance(599);
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
    emulator.state.clock.advance(1);
    expect(await envelope(await emulator.create(accessToken, ORDER))).toEqual({
      status: 401,
      message: { code: 401, error: ["Request token is expired"] },
      data: {},
      type: "error",
    });
  });

  it("answers 401 for an expired token even after it was purged", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    emulator.state.advanceClock(5000);
    expect(emulator.state.store.tokens.size).toBe(0);
    expect((await emulator.create(accessToken, ORDER)).status).toBe(401);
  });
});

describe("POST /payment/create: validation (gateway notes)", () => {
  const invalid = async (body: Record<string, unknown>, query = "") => {
    const emulator = setup();
    const res = await envelope(await emulator.create(await emulator.token(), body, { query }));
    expect(res).toMatchObject({ status: 400, message: { code: 400 }, data: {}, type: "error" });
    return res.message.error;
  };

  it("lists every missing required field, one message each", async () => {
    expect(await invalid({})).toEqual([
      "The amount field is required.",
      "The currency field is required.",
      "The return url field is required.",
      "The cancel url field is required.",
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a JSON number amount", { amount: 25 }, "The amount must be a string."],
    ["a non-numeric amount", { amount: "abc" }, "The amount must be a number."],
    ["a zero amount", { amount: "0.00" }, "The amount must be greater than 0."],
    ["a negative amount", { amount: "-5.00" }, "The amount must be greater than 0."],
    ["an amount without decimals", { amount: "25" }, "The amount must have exactly two decimal places, e.g. 25.00."],
    ["an amount with one decimal", { amount: "25.5" }, "The amount must have exactly two decimal places, e.g. 25.00."],
    [
      "an amount with three decimals",
      { amount: "25.000" },
      "The amount must have exactly two decimal places, e.g. 25.00.",
    ],
    ["an empty amount", { amount: "" }, "The amount field is required."],
    ["a null amount", { amount: null }, "The amount field is required."],
    ["another currency", { currency: "USD" }, "The selected currency is invalid."],
    ["a lower-case currency", { currency: "lyd" }, "The selected currency is invalid."],
    ["a currency that is not a string", { currency: ["LYD"] }, "The currency must be a string."],
    ["a return url without scheme", { return_url: "shop.example/return" }, "The return url must be a valid URL."],
    ["a return url with another scheme", { return_url: "ftp://shop.example/r" }, "The return url must be a valid URL."],
    ["a cancel url without scheme", { cancel_url: "/checkout/cancel" }, "The cancel url must be a valid URL."],
    [
      "a custom over 255 characters",
      { custom: "x".repeat(256) },
      "The custom must not be greater than 255 characters.",
    ],
    ["a custom that is a number", { custom: 1001 }, "The custom must be a string."],
    [
      "a full name over 255 characters",
      { full_name: "x".repeat(256) },
      "The full name must not be greater than 255 characters.",
    ],
    ["an invalid email", { email: "not-an-email" }, "The email must be a valid email address."],
    ["an email without domain dot", { email: "a@b" }, "The email must be a valid email address."],
    ["a garbage phone", { phone: "call me" }, "The phone must be a valid phone number."],
    ["a too short phone", { phone: "12" }, "The phone must be a valid phone number."],
    ["an unknown gateway", { payment_gateway: "paypal" }, "The selected payment gateway is invalid."],
    ["a gateway that is not a string", { payment_gateway: 1 }, "The payment gateway must be a string."],
  ])("rejects %s", async (_case, change, message) => {
    expect(await invalid({ ...ORDER, ...change })).toEqual([message]);
  });

  it("reports one message per failing field, in field order", async () => {
    expect(await invalid({ amount: 10, currency: "EUR", return_url: "x", cancel_url: "y", email: "z" })).toEqual([
      "The amount must be a string.",
      "The selected currency is invalid.",
      "The return url must be a valid URL.",
      "The cancel url must be a valid URL.",
      "The email must be a valid email address.",
    ]);
  });

  it("answers validation errors in Arabic with ?lang=ar", async () => {
    expect(await invalid({ ...ORDER, amount: 25, currency: "USD" }, "?lang=ar")).toEqual([
      "يجب أن يكون حقل المبلغ نصًا.",
      "قيمة العملة المختارة غير صالحة.",
    ]);
  });

  it.each(["0912345678", "+218 91 234 5678", "00218-91-2345678", "912345678", "+218912345678"])(
    "accepts the Libyan phone form %s",
    async (phone) => {
      const emulator = setup();
      expect((await emulator.create(await emulator.token(), { ...ORDER, phone })).status).toBe(200);
    },
  );

  it("accepts every configured gateway alias (prepaid for the prepaid merchant)", async () => {
    const emulator = setup({ rateLimit: 0 });
    for (const gateway of GATEWAYS) {
      const credentials = gateway.alias === PREPAID_ALIAS ? PREPAID : DEMO;
      const res = await emulator.create(await emulator.token(credentials), {
        ...ORDER,
        payment_gateway: gateway.alias,
      });
      expect(res.status, gateway.alias).toBe(200);
    }
  });

  it("does not consume the access token on a validation error", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    expect((await emulator.create(accessToken, { ...ORDER, amount: "x" })).status).toBe(400);
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
  });

  it("answers a malformed JSON body or a non-object body with 400", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    const malformed = await envelope(await emulator.create(accessToken, '{"amount": "25.00",'));
    expect(malformed.status).toBe(400);
    expect(malformed.message.error?.[0]).toMatch(/valid JSON/);
    expect((await emulator.create(accessToken, '"25.00"')).status).toBe(400);
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
  });

  it("answers a body over 64 KB with 413", async () => {
    const emulator = setup();
    const res = await emulator.create(await emulator.token(), { ...ORDER, notes: "x".repeat(70_000) });
    expect(await envelope(res)).toMatchObject({ status: 413, message: { code: 413 }, type: "error" });
  });

  it("checks the bearer before the body", async () => {
    const res = await setup().post(`${SANDBOX_API}/payment/create`, "not json");
    expect(res.status).toBe(403);
  });
});

describe("POST /payment/create: prepaid card (spec 4.2 rule 4, 7)", () => {
  it("rejects prepaid-card with 400 when the merchant has not enabled it, without consuming the token", async () => {
    const emulator = setup();
    const accessToken = await emulator.token(DEMO);
    const res = await envelope(await emulator.create(accessToken, { ...ORDER, payment_gateway: "prepaid-card" }));
    expect(res).toEqual({
      status: 400,
      message: { code: 400, error: ["Prepaid card checkout is not enabled for this merchant."] },
      data: {},
      type: "error",
    });
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
  });

  it("accepts prepaid-card for the merchant with prepaid checkout", async () => {
    const emulator = setup();
    const res = await emulator.create(await emulator.token(PREPAID), { ...ORDER, payment_gateway: "prepaid-card" });
    expect(res.status).toBe(200);
  });

  it("says so in Arabic with Accept-Language: ar", async () => {
    const emulator = setup();
    const res = await envelope(
      await emulator.create(
        await emulator.token(),
        { ...ORDER, payment_gateway: "prepaid-card" },
        { headers: { "Accept-Language": "ar" } },
      ),
    );
    expect(res.message.error).toEqual(["الدفع بالبطاقة مسبقة الدفع غير مفعّل لهذا التاجر."]);
  });
});

describe("POST /payment/create: Arabic errors", () => {
  it("localises bearer errors and the 409", async () => {
    const emulator = setup();
    const missing = await envelope(await emulator.post(`${SANDBOX_API}/payment/create?lang=ar`, ORDER));
    expect(missing.message.error).toEqual(["تم رفض الوصول! لم يتم العثور على الرمز"]);
    const accessToken = await emulator.token();
    await emulator.create(accessToken, ORDER);
    const conflict = await envelope(
      await emulator.create(accessToken, { ...ORDER, amount: "1.00" }, { query: "?lang=ar" }),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.message.error).toEqual([
      "تمت تهيئة عملية دفع لرمز الوصول هذا مسبقًا. يرجى طلب رمز مصادقة جديد لكل طلب.",
    ]);
  });

  it("stores the language of the create request with the payment", async () => {
    const emulator = setup();
    await emulator.create(await emulator.token(), ORDER, { query: "?lang=ar" });
    expect((await emulator.payments())[0]).toMatchObject({ lang: "ar" });
  });
});

describe("POST /payment/create: magic values", () => {
  it.each<[string, number, string | null]>([
    ["sandbox:error-500", 500, "Server Error"],
    ["sandbox:error-502", 502, "Bad Gateway"],
    ["sandbox:error-503", 503, "Service Unavailable"],
    ["sandbox:error-401", 401, "Request token is expired"],
    ["sandbox:error-403", 403, "Requested with invalid token!"],
    ["sandbox:rate-limit", 429, "Too Many Attempts."],
    ["sandbox:reject", 400, "The payment was rejected by the sandbox (sandbox:reject)."],
    ["sandbox:conflict", 409, CONFLICT],
  ])("%s in full_name answers %i in the envelope without consuming the token", async (magic, status, message) => {
    const emulator = setup();
    const accessToken = await emulator.token();
    const res = await emulator.create(accessToken, { ...ORDER, full_name: `Test ${magic}` });
    expect(await envelope(res)).toEqual({
      status,
      message: { code: status, error: [message] },
      data: {},
      type: "error",
    });
    if (status === 429) expect(res.headers.get("retry-after")).toBe("60");
    expect(await emulator.payments()).toHaveLength(0);
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
  });

  it("works in custom too, case-insensitively", async () => {
    const emulator = setup();
    const res = await emulator.create(await emulator.token(), { ...ORDER, custom: "order-1 SANDBOX:ERROR-503" });
    expect(res.status).toBe(503);
  });

  it("sandbox:html answers a 500 HTML page", async () => {
    const emulator = setup();
    const res = await emulator.create(await emulator.token(), { ...ORDER, custom: "sandbox:html" });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("500 | Server Error");
  });

  it("sandbox:malformed answers 200 with a body that is not valid JSON", async () => {
    const emulator = setup();
    const res = await emulator.create(await emulator.token(), { ...ORDER, custom: "sandbox:malformed" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    await expect(res.json()).rejects.toThrow();
  });

  it("sandbox:drop closes the connection (in-process: the request rejects)", async () => {
    const emulator = setup();
    const accessToken = await emulator.token();
    await expect(emulator.create(accessToken, { ...ORDER, custom: "sandbox:drop" })).rejects.toBeInstanceOf(
      ConnectionDroppedError,
    );
    expect((await emulator.create(accessToken, ORDER)).status).toBe(200);
  });

  it("sandbox:slow waits, then answers normally", async () => {
    const emulator = setup({ slowMs: 150 });
    const started = performance.now();
    const res = await emulator.create(await emulator.token(), { ...ORDER, full_name: "sandbox:slow" });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it.each(["sandbox:webhook-drop", "sandbox:webhook-delay", "sandbox:slowly", "sandbox:drops"])(
    "matches whole words only: %s leaves create alone",
    async (value) => {
      const emulator = setup();
      const started = performance.now();
      const res = await emulator.create(await emulator.token(), {
        ...ORDER,
        full_name: `Salem ${value}`,
        custom: value,
      });
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
    },
  );

  it("sandbox:slow defaults to 15 seconds", () => {
    expect(createEmulator().state.slowMs).toBe(15_000);
  });
});
