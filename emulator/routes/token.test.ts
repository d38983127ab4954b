import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { defaultMerchants } from "../config";
import { DEMO, envelope, LIVE_DEMO, PREPAID, PRODUCTION_API, SANDBOX_API, setup } from "../test-helpers";

const TOKEN_PATH = `${SANDBOX_API}/authentication/token`;

describe("POST /authentication/token (spec 4.1)", () => {
  it("returns the success envelope with a 600 s JWT", async () => {
    const emulator = setup();
    const res = await emulator.post(TOKEN_PATH, DEMO);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = await res.json();
    expect(body).toEqual({
      message: { code: 200, success: ["SUCCESS"] },
      data: { access_token: expect.any(String), expire_time: 600 },
      type: "success",
    });
    const claims = decodeJwt(body.data.access_token);
    expect(claims.sub).toBe(DEMO.client_id);
    expect(claims.mode).toBe("sandbox");
    expect(claims.jti).toEqual(expect.any(String));
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(600);
    expect(Math.abs((claims.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
  });

  it("issues a different token every time", async () => {
    const emulator = setup();
    expect(await emulator.token()).not.toBe(await emulator.token());
  });

  it("takes iat from the emulator clock", async () => {
    const emulator = setup();
    emulator.state.clock.advance(3600);
    const claims = decodeJwt(await emulator.token());
    expect(Math.abs((claims.iat ?? 0) - (Date.now() / 1000 + 3600))).toBeLessThan(5);
  });

  it("accepts production keys at the production base and the prepaid merchant's keys", async () => {
    const emulator = setup();
    expect(decodeJwt(await emulator.token(LIVE_DEMO, PRODUCTION_API)).mode).toBe("production");
    expect(decodeJwt(await emulator.token(PREPAID)).sub).toBe(PREPAID.client_id);
  });

  it.each([
    ["an unknown client ID", { client_id: "nobody", secret_id: DEMO.secret_id }, ["Invalid client ID"]],
    ["a missing client ID", { secret_id: DEMO.secret_id }, ["Invalid client ID"]],
    ["a wrong secret", { client_id: DEMO.client_id, secret_id: "wrong" }, ["Invalid secret ID"]],
    ["a missing secret", { client_id: DEMO.client_id }, ["Invalid secret ID"]],
    ["both wrong", { client_id: "nobody", secret_id: "wrong" }, ["Invalid client ID", "Invalid secret ID"]],
    ["an empty object", {}, ["Invalid client ID", "Invalid secret ID"]],
    ["non-string values", { client_id: 12, secret_id: true }, ["Invalid client ID", "Invalid secret ID"]],
  ])("rejects %s with 400 (spec 7, gateway notes)", async (_case, credentials, messages) => {
    const res = await setup().post(TOKEN_PATH, credentials);
    expect(await envelope(res)).toEqual({
      status: 400,
      message: { code: 400, error: messages },
      data: {},
      type: "error",
    });
  });

  it("rejects a key pair of the other mode with 'Requested credentials is invalid'", async () => {
    const emulator = setup();
    const sandboxAtProduction = await envelope(await emulator.post(`${PRODUCTION_API}/authentication/token`, DEMO));
    expect(sandboxAtProduction.status).toBe(400);
    expect(sandboxAtProduction.message.error).toEqual(["Requested credentials is invalid"]);
    const productionAtSandbox = await envelope(await emulator.post(TOKEN_PATH, LIVE_DEMO));
    expect(productionAtSandbox.status).toBe(400);
    expect(productionAtSandbox.message.error).toEqual(["Requested credentials is invalid"]);
  });

  it("answers a non-JSON body and a non-object body with 400 in the envelope", async () => {
    const emulator = setup();
    const malformed = await envelope(await emulator.post(TOKEN_PATH, "client_id=x&secret_id=y"));
    expect(malformed.status).toBe(400);
    expect(malformed.type).toBe("error");
    expect(malformed.message.error?.[0]).toMatch(/valid JSON/);
    const array = await envelope(await emulator.post(TOKEN_PATH, "[1,2]"));
    expect(array.status).toBe(400);
    expect(array.message.error).toEqual(["The request body must be a JSON object."]);
  });

  it("answers in Arabic with ?lang=ar or Accept-Language: ar", async () => {
    const emulator = setup();
    const query = await envelope(await emulator.post(`${TOKEN_PATH}?lang=ar`, { client_id: "x", secret_id: "y" }));
    expect(query.message.error).toEqual(["معرّف العميل غير صالح", "المفتاح السري غير صالح"]);
    const header = await envelope(
      await emulator.post(TOKEN_PATH, { ...DEMO, secret_id: "y" }, { "Accept-Language": "ar-LY,ar;q=0.9" }),
    );
    expect(header.message.error).toEqual(["المفتاح السري غير صالح"]);
  });

  it("uses merchant keys given at creation (environment overrides)", async () => {
    const emulator = setup({ merchants: defaultMerchants({ clientId: "my-id", clientSecret: "my-secret" }) });
    expect(await emulator.token({ client_id: "my-id", secret_id: "my-secret" })).toEqual(expect.any(String));
    expect((await emulator.post(TOKEN_PATH, DEMO)).status).toBe(400);
  });

  it("answers other methods with 405 and unknown API routes with 404, both in the envelope", async () => {
    const { app } = setup();
    const get = await envelope(await app.request(TOKEN_PATH));
    expect(get).toMatchObject({ status: 405, message: { code: 405 }, data: {}, type: "error" });
    const unknown = await envelope(await app.request(`${SANDBOX_API}/payment/status`, { method: "POST" }));
    expect(unknown).toMatchObject({ status: 404, message: { code: 404 }, data: {}, type: "error" });
  });

  it("tolerates a doubled slash after the base URL (base with a trailing slash)", async () => {
    const res = await setup().post(`${SANDBOX_API}//authentication/token`, DEMO);
    expect(res.status).toBe(200);
  });
});
