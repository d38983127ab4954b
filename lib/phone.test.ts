import { describe, expect, it } from "vitest";
import { libyanMobileE164, normaliseLibyanMobile } from "./phone";

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

describe("libyanMobileE164", () => {
  it.each([
    ["0912345678", "+218912345678"],
    ["+218 94 123 4567", "+218941234567"],
    ["00218921234567", "+218921234567"],
  ])("writes %j as %j", (input, e164) => {
    expect(libyanMobileE164(input)).toBe(e164);
  });
  it.each(["0212345678", "+44 7700 900123", ""])("refuses %j: not a Libyan mobile", (input) => {
    expect(libyanMobileE164(input)).toBeNull();
  });
});
