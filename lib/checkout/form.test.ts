import { describe, expect, it } from "vitest";
import { DEFAULT_GATEWAYS } from "../gateways";
import { looksLikeWebAddress } from "../typed-text";
import { checkoutFormSchema, readCheckoutValues } from "./form";

/** A cart of digital products only: no delivery, a way to reach the customer (the tests below give an e-mail). */
const schema = checkoutFormSchema(DEFAULT_GATEWAYS, { physical: false, pickup: false, zones: [] });
/** Goods, delivered to the zones 1 (Tripoli) and 2; the zone 3 was turned off since the form was shown. */
const goods = checkoutFormSchema(DEFAULT_GATEWAYS, { physical: true, pickup: false, zones: [1, 2] });
const goodsOrPickup = checkoutFormSchema(DEFAULT_GATEWAYS, { physical: true, pickup: true, zones: [1, 2] });
const issuesOf = (of: typeof schema) => (values: Record<string, string>) => {
  const result = of.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};
const issues = (values: Record<string, string>) => issuesOf(schema)({ email: "a@example.ly", ...values });
/** A delivery as the form posts it, to Tripoli (zone 1). */
const delivered = {
  phone: "0912345678",
  delivery_method: "delivery",
  delivery_zone: "1",
  delivery_address: "Hay Al-Andalus, Gargaresh Street",
};

describe("checkout form schema", () => {
  it("refuses a digital cart's form with no e-mail and no phone: the shop could not reach the customer", () => {
    expect(issuesOf(schema)({ full_name: "", email: "  ", phone: "", payment_gateway: "" })).toEqual({
      email: "contactRequired",
    });
  });

  it("takes a digital cart's form with an e-mail or a phone alone, and ignores any delivery field", () => {
    expect(
      schema.parse({ email: " a@example.ly ", phone: "", delivery_address: "x", delivery_method: "pickup" }),
    ).toEqual({ full_name: undefined, email: "a@example.ly", phone: undefined, payment_gateway: undefined });
    expect(schema.parse({ phone: "091 234 5678" }).phone).toBe("0912345678");
  });

  it("asks a cart of goods for the method, the phone, the city and the address, each with its own message", () => {
    expect(issuesOf(goods)({})).toEqual({ phone: "phoneRequired", delivery_method: "deliveryMethodMissing" });
    expect(issuesOf(goods)({ delivery_method: "delivery", email: "bad" })).toEqual({
      email: "emailInvalid",
      phone: "phoneRequired",
      delivery_zone: "zoneMissing",
      delivery_address: "addressMissing",
    });
    expect(issuesOf(goods)({ ...delivered, delivery_zone: "tripoli", delivery_method: "drone" })).toEqual({
      delivery_method: "deliveryMethodMissing",
    });
    expect(issuesOf(goods)({ ...delivered, delivery_zone: "-1" })).toEqual({ delivery_zone: "zoneUnavailable" });
  });

  it("reads the way to pay: online when blank, cash on delivery without a gateway, anything else refused", () => {
    expect(goods.parse({ ...delivered, payment_gateway: "sadad" })).toMatchObject({ payment_gateway: "sadad" });
    expect(goods.parse({ ...delivered, payment_gateway: "sadad" }).payment_method).toBeUndefined();
    const cash = goods.parse({ ...delivered, payment_method: "cash", payment_gateway: "sadad" });
    expect(cash.payment_method).toBe("cash");
    expect(cash).not.toHaveProperty("payment_gateway");
    expect(issuesOf(goods)({ ...delivered, payment_method: "bitcoin" })).toEqual({
      payment_method: "paymentMethodInvalid",
    });
  });

  it("reads a promo code as codes are compared: trimmed, upper case, Arabic-Indic digits as digits; blank is none", () => {
    expect(schema.parse({ email: "a@example.ly", promo_code: " eid١٠ " }).promo_code).toBe("EID10");
    expect(schema.parse({ email: "a@example.ly", promo_code: "  " }).promo_code).toBeUndefined();
    expect(schema.parse({ email: "a@example.ly" })).not.toHaveProperty("promo_code");
  });

  it("requires a valid Libyan mobile for cash: the merchant calls it to confirm the order", () => {
    expect(issues({ payment_method: "cash" })).toEqual({ phone: "cashPhoneRequired" });
    expect(issuesOf(goods)({ ...delivered, phone: "+33 6 12 34 56 78", payment_method: "cash" })).toEqual({
      phone: "phoneInvalid",
    });
  });

  it("refuses a city the merchant no longer delivers to on its field, keeping the rest", () => {
    expect(issuesOf(goods)({ ...delivered, delivery_zone: "3" })).toEqual({ delivery_zone: "zoneUnavailable" });
    expect(issuesOf(goods)({ ...delivered, delivery_zone: "01" })).toEqual({ delivery_zone: "zoneUnavailable" });
    expect(issuesOf(goods)({ ...delivered, delivery_zone: "2" })).toEqual({});
  });

  it("turns a delivery into its details: trimmed, the second phone normalised, blanks dropped", () => {
    expect(
      goods.parse({
        ...delivered,
        full_name: "Aisha",
        delivery_address: "  حي الأندلس، شارع قرقارش ",
        delivery_landmark: "",
        second_phone: "+218 92 345 6789",
      }),
    ).toEqual({
      full_name: "Aisha",
      email: undefined,
      phone: "0912345678",
      payment_gateway: undefined,
      delivery: { method: "delivery", zoneId: 1, address: "حي الأندلس، شارع قرقارش", secondPhone: "0923456789" },
    });
  });

  it("refuses a bad address, landmark or second phone with its own message", () => {
    expect(
      issuesOf(goods)({
        ...delivered,
        delivery_address: "x".repeat(301),
        delivery_landmark: "near\nthe mosque",
        second_phone: "12345",
      }),
    ).toEqual({
      delivery_address: "addressTooLong",
      delivery_landmark: "landmarkControl",
      second_phone: "secondPhoneInvalid",
    });
    expect(
      issuesOf(goods)({ ...delivered, delivery_address: "Street\t5", delivery_landmark: "y".repeat(201) }),
    ).toEqual({
      delivery_address: "addressControl",
      delivery_landmark: "landmarkTooLong",
    });
  });

  it.each(["see https://evil.example/r", "www.evil.example", "Gargaresh evil.example", "//evil.example"])(
    "refuses an address or landmark holding a web address, which the merchant's e-mail would show as a link: %j",
    (text) => {
      expect(issuesOf(goods)({ ...delivered, delivery_address: text, delivery_landmark: text })).toEqual({
        delivery_address: "addressUrl",
        delivery_landmark: "landmarkUrl",
      });
    },
  );

  it("keeps an address with initials, abbreviations and Arabic punctuation", () => {
    for (const delivery_address of ["Gargaresh St. 12, bldg. 3", "حي الأندلس، شارع ١٢، عمارة ٣", "Omar A. Mukhtar St."])
      expect(issuesOf(goods)({ ...delivered, delivery_address })).toEqual({});
  });

  it("refuses direction controls (an address that reads other than it is) in the name, address and landmark", () => {
    const overridden = "Building \u202E21"; // shows as "Building 12"
    expect(
      issuesOf(goods)({
        ...delivered,
        full_name: "Ali\u2066 Omar",
        delivery_address: overridden,
        delivery_landmark: "mosque\u202B",
      }),
    ).toEqual({
      full_name: "directionControl",
      delivery_address: "directionControl",
      delivery_landmark: "directionControl",
    });
    // The direction marks are how Arabic keyboards keep punctuation in place in mixed text: kept.
    expect(issuesOf(goods)({ ...delivered, delivery_address: "شارع\u200F 5 \u200EA" })).toEqual({});
  });

  it("offers pickup only when the merchant does; a pickup needs the phone and no address", () => {
    expect(issuesOf(goods)({ phone: "0912345678", delivery_method: "pickup" })).toEqual({
      delivery_method: "pickupUnavailable",
    });
    expect(
      goodsOrPickup.parse({ phone: "0912345678", delivery_method: "pickup", delivery_address: "ignored" }),
    ).toEqual({
      full_name: undefined,
      email: undefined,
      phone: "0912345678",
      payment_gateway: undefined,
      delivery: { method: "pickup" },
    });
    expect(issuesOf(goodsOrPickup)({ delivery_method: "pickup" })).toEqual({ phone: "phoneRequired" });
  });

  it("trims and keeps Arabic and other Unicode names", () => {
    expect(schema.parse({ email: "a@example.ly", full_name: "  عائشة بن علي  " }).full_name).toBe("عائشة بن علي");
    expect(schema.parse({ email: "a@example.ly", full_name: "Zoë O'Brien-Łukasz" }).full_name).toBe(
      "Zoë O'Brien-Łukasz",
    );
  });

  it("gives a specific message per bad field", () => {
    expect(
      issues({ email: "not-an-email", phone: "12345", payment_gateway: "bitcoin", full_name: "x".repeat(101) }),
    ).toEqual({
      email: "emailInvalid",
      phone: "phoneInvalid",
      payment_gateway: "gatewayInvalid",
      full_name: "fullNameTooLong",
    });
  });

  it("refuses control characters in names", () => {
    expect(issues({ full_name: "Ali\u0000" })).toEqual({ full_name: "fullNameControl" });
  });

  it.each(["visit https://evil.example/r?o=1", "www.evil.example", "Ali evil.example", "see //evil.example"])(
    "refuses a name holding a web address, which the merchant's e-mail would show as a link: %j",
    (full_name) => {
      expect(issues({ full_name })).toEqual({ full_name: "fullNameUrl" });
    },
  );

  it.each(["J.R. Smith", "Omar O. Zwai", "St. John", "عائشة بن علي", "Mr. Ali Ben-Omar"])(
    "keeps the name %j",
    (name) => {
      expect(looksLikeWebAddress(name)).toBe(false);
    },
  );

  it("reads the 'Text me about this order' box: ticked is yes, its hidden no or nothing is not", () => {
    const posted = (...pairs: [string, string][]) => {
      const form = new FormData();
      for (const [name, value] of pairs) form.append(name, value);
      return readCheckoutValues(form);
    };
    // The hidden "no" comes first in the form, the box's "yes" after it when ticked: the last one counts.
    expect(posted(["sms_updates", "no"], ["sms_updates", "yes"]).sms_updates).toBe("yes");
    expect(posted(["sms_updates", "no"]).sms_updates).toBe("no");
    expect(posted(["email", "a@example.ly"]).sms_updates).toBeUndefined();
    const parse = (sms_updates?: string) => goods.parse({ ...delivered, sms_updates }).sms_updates;
    expect(parse("yes")).toBe(true);
    expect([parse("no"), parse(undefined), parse("on")]).toEqual([undefined, undefined, undefined]);
  });

  it("refuses a phone that is no Libyan mobile, ticked box or not: texts go to Libyan mobiles only", () => {
    for (const phone of ["021 333 4444", "+44 7700 900123"])
      expect(issuesOf(goods)({ ...delivered, phone, sms_updates: "yes" })).toEqual({ phone: "phoneInvalid" });
  });

  it("only offers the configured gateways", () => {
    const narrow = checkoutFormSchema([{ alias: "sadad", name: "Sadad" }], {
      physical: false,
      pickup: false,
      zones: [],
    });
    expect(narrow.safeParse({ email: "a@example.ly", payment_gateway: "sadad" }).success).toBe(true);
    expect(narrow.safeParse({ email: "a@example.ly", payment_gateway: "edfali" }).success).toBe(false);
  });
});
