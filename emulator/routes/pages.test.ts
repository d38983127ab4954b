import { describe, expect, it } from "vitest";
import { GATEWAYS } from "../config";
import { redirectTarget } from "./pages";
import { LIVE_DEMO, ORDER, PREPAID, PRODUCTION_API, setup, submitForm } from "../test-helpers";

/** Text content of every `<tag>` (markup inside stripped). */
const texts = (html: string, tag: string) =>
  [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, "g"))].map((m) =>
    (m[1] ?? "").replace(/<[^>]+>/g, "").trim(),
  );
const buttons = (html: string) => texts(html, "button");
const headings = (html: string) => texts(html, "h1");
/** The radio options of the selection form: value and label text. */
const radios = (html: string) =>
  [...html.matchAll(/<label[^>]*><input type="radio" name="gateway" value="([^"]+)"[^>]*\/>([^<]*)<\/label>/g)].map(
    (m) => ({ value: m[1], label: m[2] }),
  );
const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");

const CUSTOMER = { full_name: "Salem Ali", email: "salem@example.ly", phone: "0912345678" };

async function page(emulator: ReturnType<typeof setup>, path: string) {
  const res = await emulator.app.request(path);
  return { status: res.status, html: await res.text(), res };
}

describe("landing page", () => {
  it("shows the gateway selection when no payment_gateway was sent", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    const { status, html, res } = await page(emulator, path);
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(headings(html)).toEqual(["Choose a payment method"]);
    expect(html).toContain("Demo Shop");
    expect(html).toContain("25.00 LYD");
    expect(html).toContain("order-1001");
    const options = radios(html);
    expect(options.map((o) => o.label)).toEqual(
      GATEWAYS.filter((g) => g.alias !== "prepaid-card").map((g) => g.name.en),
    );
    expect(options.map((o) => o.value)).not.toContain("prepaid-card");
    expect(buttons(html)).toEqual(["Continue"]);
    expect(formAction(html)).toBe(`${path}/gateway?lang=en`);
    for (const label of ["Full name", "Email", "Phone"])
      expect(html).toMatch(new RegExp(`<label class="field">${label}<input`));
  });

  it("offers prepaid card only to the merchant that has it enabled", async () => {
    const emulator = setup();
    const { path } = await emulator.payment(ORDER, PREPAID);
    expect(radios((await page(emulator, path)).html).map((o) => o.label)).toContain("Prepaid card");
  });

  it("skips the selection when payment_gateway was sent (rule 6): summary, pre-filled details, Continue to <gateway>", async () => {
    const emulator = setup();
    const { path } = await emulator.payment({ ...ORDER, payment_gateway: "sadad", phone: "0912345678" });
    const { html } = await page(emulator, path);
    expect(radios(html)).toEqual([]);
    expect(headings(html)).toEqual(["Continue to Sadad"]);
    expect(buttons(html)).toEqual(["Continue to Sadad"]);
    expect(html).toContain('<input type="hidden" name="gateway" value="sadad"/>');
    expect(html).toContain('value="+218 91 234 5678"');
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it("auto-submits when full_name, email, phone and payment_gateway were all sent (rule 5)", async () => {
    const emulator = setup();
    const { path } = await emulator.payment({ ...ORDER, ...CUSTOMER, payment_gateway: "edfali" });
    const { html } = await page(emulator, path);
    expect(headings(html)).toEqual(["Redirecting you to Edfali…"]);
    expect(html).toContain(`<meta http-equiv="refresh" content="2;url=${path}/gateway/edfali?lang=en"/>`);
    expect(html).toMatch(
      new RegExp(`<a class="button primary" href="${path}/gateway/edfali\\?lang=en">Continue now</a>`),
    );
    expect(html).toContain("Salem Ali");
    expect(html).not.toContain("<script");
  });

  it("does not auto-submit when one of the four is missing", async () => {
    const emulator = setup();
    const { path } = await emulator.payment({ ...ORDER, full_name: "A", email: "a@b.ly", payment_gateway: "sadad" });
    expect((await page(emulator, path)).html).not.toContain('http-equiv="refresh"');
  });

  it("escapes merchant-provided values so markup stays inert", async () => {
    const emulator = setup();
    const { path } = await emulator.payment({
      ...ORDER,
      full_name: "<script>alert('name')</script>",
      custom: '"><img src=x onerror=alert(1)>',
    });
    const { html, res } = await page(emulator, path);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain('value="&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"');
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("renders in the language of the create request, with ?lang= overriding it", async () => {
    const emulator = setup();
    const res = await emulator.create(
      await emulator.token(),
      { ...ORDER, payment_gateway: "sadad" },
      { query: "?lang=ar" },
    );
    const path = new URL(((await res.json()) as { data: { payment_url: string } }).data.payment_url).pathname;
    const arabic = (await page(emulator, path)).html;
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(headings(arabic)).toEqual(["المتابعة إلى Sadad"]);
    const english = (await page(emulator, `${path}?lang=en`)).html;
    expect(english).toContain('<html lang="en" dir="ltr">');
    expect(headings(english)).toEqual(["Continue to Sadad"]);
  });

  it("answers an unknown token with a 404 page", async () => {
    const emulator = setup();
    const { status, html } = await page(emulator, "/pay/sandbox/v1/user/payment/preview/unknown-token");
    expect(status).toBe(404);
    expect(headings(html)).toEqual(["Payment not found"]);
  });

  it("serves a production payment only under /pay/v1/", async () => {
    const emulator = setup();
    const { token, path } = await emulator.payment(ORDER, LIVE_DEMO, PRODUCTION_API);
    expect(path).toBe(`/pay/v1/user/payment/preview/${token}`);
    expect((await page(emulator, path)).status).toBe(200);
    expect((await page(emulator, `/pay/sandbox/v1/user/payment/preview/${token}`)).status).toBe(404);
  });
});

describe("selection form", () => {
  it("continues to the chosen gateway page (303) and keeps the details typed in", async () => {
    const emulator = setup();
    const { path, token } = await emulator.payment();
    const res = await submitForm(emulator, `${path}/gateway?lang=en`, { gateway: "mobicash", ...CUSTOMER });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${path}/gateway/mobicash?lang=en`);
    const payment = (await emulator.payments()).find((p) => p.token === token);
    expect(payment).toMatchObject(CUSTOMER);
  });

  it("asks again (400) when no gateway or a disabled one was chosen", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    const attempts: Array<Record<string, string>> = [{}, { gateway: "prepaid-card" }, { gateway: "nope" }];
    for (const fields of attempts) {
      const res = await submitForm(emulator, `${path}/gateway`, fields);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Choose a payment method to continue.");
    }
  });
});

describe("gateway page and redirects (spec 4.3)", () => {
  it("shows the gateway name, the amount and the Pay, Decline and Cancel buttons", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    const { status, html } = await page(emulator, `${path}/gateway/sadad`);
    expect(status).toBe(200);
    expect(headings(html)).toEqual(["Sadad"]);
    expect(html).toContain("25.00 LYD");
    expect(buttons(html)).toEqual(["Pay", "Decline", "Cancel"]);
    expect(html).toContain('<button type="submit" name="outcome" value="pay" class="primary">Pay</button>');
    expect(formAction(html)).toBe(`${path}/gateway/sadad/complete?lang=en`);
  });

  it("shows Arabic buttons in Arabic", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    expect(buttons((await page(emulator, `${path}/gateway/sadad?lang=ar`)).html)).toEqual(["ادفع", "رفض", "إلغاء"]);
  });

  it("Pay marks the payment paid and 303s to return_url with type=success&token", async () => {
    const emulator = setup();
    const { path, token } = await emulator.payment();
    const res = await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`https://shop.example/checkout/return?type=success&token=${token}`);
    expect((await emulator.payments())[0]).toMatchObject({ status: "paid", gatewayUsed: "sadad" });
  });

  it.each([
    ["decline", "declined"],
    ["cancel", "cancelled"],
  ])("%s marks the payment %s and 303s to cancel_url with type=cancel&token", async (outcome, status) => {
    const emulator = setup();
    const { path, token } = await emulator.payment();
    const res = await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`https://shop.example/checkout/cancel?type=cancel&token=${token}`);
    expect((await emulator.payments())[0]).toMatchObject({ status });
  });

  it("appends with & when the merchant URL already has a query string", async () => {
    const emulator = setup();
    const { path, token } = await emulator.payment({
      ...ORDER,
      return_url: "https://shop.example/checkout/return?order=42&lang=ar",
    });
    const res = await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" });
    expect(res.headers.get("location")).toBe(
      `https://shop.example/checkout/return?order=42&lang=ar&type=success&token=${token}`,
    );
  });

  it("keeps the merchant URL's query encoding and fragment intact", () => {
    expect(redirectTarget("https://s.example/r?q=a%20b#top", "cancel", "T")).toBe(
      "https://s.example/r?q=a%20b&type=cancel&token=T#top",
    );
    expect(redirectTarget("http://localhost:3000/cb?", "success", "T")).toBe(
      "http://localhost:3000/cb?type=success&token=T",
    );
  });

  it("allows only the gateway chosen at create", async () => {
    const emulator = setup();
    const { path } = await emulator.payment({ ...ORDER, payment_gateway: "sadad" });
    expect((await page(emulator, `${path}/gateway/edfali`)).status).toBe(404);
    expect((await submitForm(emulator, `${path}/gateway/edfali/complete`, { outcome: "pay" })).status).toBe(404);
    expect((await page(emulator, `${path}/gateway/sadad`)).status).toBe(200);
  });

  it("does not offer prepaid card to a merchant without it", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    expect((await page(emulator, `${path}/gateway/prepaid-card`)).status).toBe(404);
  });

  it("rejects an unknown outcome", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    for (const outcome of ["refund", "toString", "__proto__"]) {
      expect((await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome })).status).toBe(404);
    }
    expect((await emulator.payments())[0]).toMatchObject({ status: "pending" });
  });
});

describe("completed payments", () => {
  it("cannot be paid twice or change outcome: the pages say it is already completed", async () => {
    const emulator = setup();
    const { path, token } = await emulator.payment();
    await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" });

    for (const url of [path, `${path}/gateway/sadad`]) {
      const { status, html } = await page(emulator, url);
      expect(status).toBe(200);
      expect(headings(html)).toEqual(["Payment already completed"]);
      expect(buttons(html)).toEqual([]);
      expect(html).toContain(`href="https://shop.example/checkout/return?type=success&amp;token=${token}"`);
    }
    const again = await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "cancel" });
    expect(again.status).toBe(409);
    expect(again.headers.get("location")).toBeNull();
    expect(headings(await again.text())).toEqual(["Payment already completed"]);
    expect((await submitForm(emulator, `${path}/gateway`, { gateway: "sadad" })).status).toBe(409);
    expect((await emulator.payments())[0]).toMatchObject({ status: "paid" });
  });

  it("links a declined payment back to cancel_url", async () => {
    const emulator = setup();
    const { path, token } = await emulator.payment();
    await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "decline" });
    const { html } = await page(emulator, path);
    expect(html).toContain("This payment is declined.");
    expect(html).toContain(`href="https://shop.example/checkout/cancel?type=cancel&amp;token=${token}"`);
  });
});

describe("page expiry", () => {
  it("expires 600 s after the access token was issued, not after create: 410 and status expired", async () => {
    // Real time stands still, on a whole second: the token's `iat` is in whole seconds, so a clock that also moved with
    // real time could cross the 600th second between two steps of a busy machine.
    const frozen = Math.floor(Date.now() / 1000) * 1000;
    const emulator = setup({ now: () => frozen });
    const accessToken = await emulator.token();
    emulator.state.clock.advance(300);
    const res = await emulator.create(accessToken, ORDER);
    const path = new URL(((await res.json()) as { data: { payment_url: string } }).data.payment_url).pathname;
    emulator.state.clock.advance(299);
    expect((await page(emulator, path)).status).toBe(200);
    emulator.state.clock.advance(1);
    const expired = await page(emulator, path);
    expect(expired.status).toBe(410);
    expect(headings(expired.html)).toEqual(["Payment link expired"]);
    expect((await page(emulator, `${path}/gateway/sadad`)).status).toBe(410);
    expect((await submitForm(emulator, `${path}/gateway/sadad/complete`, { outcome: "pay" })).status).toBe(410);
    expect((await emulator.payments())[0]).toMatchObject({ status: "expired" });
  });

  it("shows 404 once the expired payment was purged", async () => {
    const emulator = setup();
    const { path } = await emulator.payment();
    emulator.state.advanceClock(600);
    expect((await page(emulator, path)).status).toBe(410);
    emulator.state.advanceClock(600);
    expect((await page(emulator, path)).status).toBe(404);
  });
});

describe("index page", () => {
  it("lists the base URLs and credentials", async () => {
    const { html, status } = await page(setup(), "/");
    expect(status).toBe(200);
    expect(html).toContain("http://127.0.0.1:4010/pay/sandbox/api/v1");
    expect(html).toContain("http://127.0.0.1:4010/pay/api/v1");
    expect(html).toContain("sandbox-demo-client-id");
    expect(html).toContain("sandbox-prepaid-client-secret");
  });

  it("answers unknown pages with an HTML 404", async () => {
    const { status, html } = await page(setup(), "/nope");
    expect(status).toBe(404);
    expect(headings(html)).toEqual(["Payment not found"]);
  });
});
