import { describe, expect, it } from "vitest";
import { addToCart, priceCart, MAX_LINES, MAX_QUANTITY, quantitySchema, removeFromCart, setQuantity } from "./cart";
import { ACCESS_TOKEN_LIFETIME_MS, applyReturn, buildPaymentRequest, canResume, checkoutFingerprint, checkoutFormSchema, normaliseLibyanMobile, parseReturnQuery, willAutoSubmit, type Order } from "./checkout";
import { DEFAULT_GATEWAYS } from "./gateways";

const schema = checkoutFormSchema(DEFAULT_GATEWAYS);
const issues = (values: Record<string, string>) => {
  const result = schema.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("checkout form schema", () => {
  it("accepts an empty form: every detail can be given on the payment page", () => {
    expect(schema.parse({ full_name: "", email: "  ", phone: "", payment_gateway: "" })).toEqual({
      full_name: undefined,
      email: undefined,
      phone: undefined,
      payment_gateway: undefined,
    });
  });

  it("trims and keeps Arabic and other Unicode names", () => {
    expect(schema.parse({ full_name: "  عائشة بن علي  " }).full_name).toBe("عائشة بن علي");
    expect(schema.parse({ full_name: "Zoë O'Brien-Łukasz" }).full_name).toBe("Zoë O'Brien-Łukasz");
  });

  it("gives a specific message per bad field", () => {
    expect(issues({ email: "not-an-email", phone: "12345", payment_gateway: "bitcoin", full_name: "x".repeat(101) })).toEqual({
      email: "emailInvalid",
      phone: "phoneInvalid",
      payment_gateway: "gatewayInvalid",
      full_name: "fullNameTooLong",
    });
  });

  it("refuses control characters in names", () => {
    expect(issues({ full_name: "Ali\u0000" })).toEqual({ full_name: "fullNameControl" });
  });

  it("only offers the configured gateways", () => {
    const narrow = checkoutFormSchema([{ alias: "sadad", name: "Sadad" }]);
    expect(narrow.safeParse({ payment_gateway: "sadad" }).success).toBe(true);
    expect(narrow.safeParse({ payment_gateway: "edfali" }).success).toBe(false);
  });
});

describe("normaliseLibyanMobile", () => {
  it.each(["0912345678", "091 234 5678", "091-234-5678", "+218912345678", "+218 91 234 5678", "00218912345678", "218912345678"])(
    "normalises %j to 0912345678",
    (input) => {
      expect(normaliseLibyanMobile(input)).toBe("0912345678");
    },
  );
  it.each(["", "12345", "+44 7700 900123", "0212345678", "abcdefghij", "09123456789999"])("rejects %j", (input) => {
    expect(normaliseLibyanMobile(input)).toBeNull();
  });
});

describe("auto-submit (spec §4.2 rule 5)", () => {
  const all = { full_name: "Aisha", email: "a@example.ly", phone: "0912345678", payment_gateway: "sadad" };
  it("needs all three details and a gateway", () => {
    expect(willAutoSubmit(all)).toBe(true);
    for (const key of Object.keys(all)) expect(willAutoSubmit({ ...all, [key]: undefined })).toBe(false);
  });
});

describe("cart", () => {
  it("prices from the catalogue in minor units and skips unknown products", () => {
    const priced = priceCart({ lines: [{ slug: "olive-oil", quantity: 2 }, { slug: "gone", quantity: 1 }] });
    expect(priced.totalMinor).toBe(8500);
    expect(priced.itemCount).toBe(2);
    expect(priced.unavailable).toEqual(["gone"]);
  });

  it("merges lines and refuses more than the per-line maximum", () => {
    const one = addToCart({ lines: [] }, "saffron", 3);
    expect(one).toEqual({ ok: true, cart: { lines: [{ slug: "saffron", quantity: 3 }] } });
    const full = addToCart({ lines: [{ slug: "saffron", quantity: MAX_QUANTITY }] }, "saffron", 1);
    expect(full.ok).toBe(false);
  });

  it("refuses more lines than fit the session cookie", () => {
    const lines = Array.from({ length: MAX_LINES }, (_, i) => ({ slug: `p${i}`, quantity: 1 }));
    expect(addToCart({ lines }, "saffron", 1).ok).toBe(false);
  });

  it("sets and removes lines", () => {
    const cart = { lines: [{ slug: "saffron", quantity: 1 }] };
    expect(setQuantity(cart, "saffron", 4)).toEqual({ ok: true, cart: { lines: [{ slug: "saffron", quantity: 4 }] } });
    expect(setQuantity(cart, "olive-oil", 4).ok).toBe(false);
    expect(removeFromCart(cart, "saffron")).toEqual({ lines: [] });
  });

  it.each([
    ["0", "quantityMin"],
    ["-1", "quantityMin"],
    ["1.5", "quantityWhole"],
    ["1e3", "quantityNotNumber"],
    ["Infinity", "quantityNotNumber"],
    ["abc", "quantityNotNumber"],
    ["", "quantityNotNumber"],
    ["21", "quantityMax"],
    ["99999999999999999999", "quantityMax"],
  ])("refuses quantity %j with %s", (value, key) => {
    const result = quantitySchema.safeParse(value);
    expect(result.error?.issues[0]?.message).toBe(key);
  });

  it("accepts whole quantities, spaces trimmed", () => {
    expect(quantitySchema.parse(" 3 ")).toBe(3);
    expect(quantitySchema.parse("20")).toBe(20);
  });
});

describe("buildPaymentRequest", () => {
  it("uses the server's total and the site's return and cancel URLs", () => {
    const priced = priceCart({ lines: [{ slug: "saffron", quantity: 2 }] });
    const request = buildPaymentRequest("ord_x", priced, { payment_gateway: "sadad" }, "https://shop.example.ly");
    expect(request).toMatchObject({
      amountMinor: 3750,
      currency: "LYD",
      returnUrl: "https://shop.example.ly/checkout/return",
      cancelUrl: "https://shop.example.ly/checkout/cancel",
      orderId: "ord_x",
      paymentGateway: "sadad",
    });
  });
});

describe("coming back from the payment page (spec §4.3)", () => {
  const order: Order = {
    id: "ord_1",
    lines: [{ slug: "saffron", quantity: 1, unitMinor: 1875 }],
    amountMinor: 1875,
    currency: "LYD",
    paymentToken: "pt-1",
    paymentUrl: "https://pay.example.ly/pay/sandbox/v1/user/payment/preview/pt-1",
    status: "pending",
    createdAt: 1,
    accessTokenIssuedAt: 1,
    fingerprint: "fp",
  };
  const q = (s: string) => new URLSearchParams(s);

  it("moves pending → paid on success at the return URL, once", () => {
    const first = applyReturn(order, "return", q("type=success&token=pt-1"), 99);
    expect(first.outcome).toBe("paid");
    expect(first.order).toMatchObject({ status: "paid", settledAt: 99 });
    expect(applyReturn(first.order, "return", q("type=success&token=pt-1")).outcome).toBe("already_settled");
    expect(applyReturn(first.order, "cancel", q("type=cancel&token=pt-1")).outcome).toBe("already_settled");
  });

  it("moves pending → cancelled at the cancel URL, and a later success changes nothing", () => {
    const cancelled = applyReturn(order, "cancel", q("type=cancel&token=pt-1"));
    expect(cancelled.order?.status).toBe("cancelled");
    const late = applyReturn(cancelled.order, "return", q("type=success&token=pt-1"));
    expect(late).toEqual({ order: cancelled.order, outcome: "already_settled" });
  });

  it("changes nothing for another token, a type that does not fit the route, type=error, or no order", () => {
    expect(applyReturn(order, "return", q("type=success&token=pt-2"))).toEqual({ order, outcome: "token_mismatch" });
    expect(applyReturn(order, "return", q("type=cancel&token=pt-1"))).toEqual({ order, outcome: "invalid_redirect" });
    expect(applyReturn(order, "cancel", q("type=error&token=pt-1"))).toEqual({ order, outcome: "invalid_redirect" });
    expect(applyReturn(undefined, "return", q("type=success&token=pt-1")).outcome).toBe("no_order");
  });

  it("ignores the platform's extra parameters but refuses conflicting repeats and huge tokens", () => {
    expect(parseReturnQuery(q("type=success&token=pt-1&message[code]=200&data[x]=1"))).toEqual({ type: "success", token: "pt-1" });
    expect(parseReturnQuery(q("type=success&token=pt-1&token=pt-1"))).toEqual({ type: "success", token: "pt-1" });
    expect(parseReturnQuery(q("type=success&token=pt-1&token=pt-2"))).toBeNull();
    expect(parseReturnQuery(q(`type=success&token=${"a".repeat(600)}`))).toBeNull();
    expect(parseReturnQuery(q("token=pt-1"))).toBeNull();
  });
});

describe("resuming a pending payment (double submit)", () => {
  const cart = priceCart({ lines: [{ slug: "saffron", quantity: 2 }] });
  it("fingerprints the same checkout identically and any change differently", async () => {
    const same = await checkoutFingerprint(cart, { email: "a@example.ly" });
    expect(await checkoutFingerprint(priceCart({ lines: [{ slug: "saffron", quantity: 2 }] }), { email: "a@example.ly" })).toBe(same);
    expect(await checkoutFingerprint(cart, { email: "b@example.ly" })).not.toBe(same);
    expect(await checkoutFingerprint(priceCart({ lines: [{ slug: "saffron", quantity: 3 }] }), { email: "a@example.ly" })).not.toBe(same);
    expect(await checkoutFingerprint(cart, { email: "a@example.ly", payment_gateway: "sadad" })).not.toBe(same);
  });

  it("resumes only a pending order with the same fingerprint whose payment page has time left", () => {
    const now = 1_000_000;
    const order = {
      id: "ord_1",
      lines: [],
      amountMinor: 3750,
      currency: "LYD",
      paymentToken: "pt",
      paymentUrl: "u",
      status: "pending" as const,
      createdAt: now,
      accessTokenIssuedAt: now,
      fingerprint: "fp",
    };
    expect(canResume(order, "fp", now + 60_000)).toBe(true);
    expect(canResume(order, "other", now)).toBe(false);
    expect(canResume({ ...order, status: "paid" }, "fp", now)).toBe(false);
    expect(canResume(order, "fp", now + ACCESS_TOKEN_LIFETIME_MS - 60_000)).toBe(false);
  });
});
