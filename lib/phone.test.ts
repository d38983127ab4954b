import { describe, expect, it } from "vitest";
import { normaliseLibyanMobile } from "./phone";

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
