import { describe, expect, it } from "vitest";
import { DEFAULT_GATEWAYS } from "../gateways";
import { checkoutFormSchema, looksLikeWebAddress, normaliseLibyanMobile } from "./form";

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

  it("only offers the configured gateways", () => {
    const narrow = checkoutFormSchema([{ alias: "sadad", name: "Sadad" }]);
    expect(narrow.safeParse({ payment_gateway: "sadad" }).success).toBe(true);
    expect(narrow.safeParse({ payment_gateway: "edfali" }).success).toBe(false);
  });
});

describe("normaliseLibyanMobile", () => {
  it.each([
    "0912345678",
    "091 234 5678",
    "091-234-5678",
    "+218912345678",
    "+218 91 234 5678",
    "00218912345678",
    "218912345678",
  ])("normalises %j to 0912345678", (input) => {
    expect(normaliseLibyanMobile(input)).toBe("0912345678");
  });
  it.each(["", "12345", "+44 7700 900123", "0212345678", "abcdefghij", "09123456789999"])("rejects %j", (input) => {
    expect(normaliseLibyanMobile(input)).toBeNull();
  });
});
