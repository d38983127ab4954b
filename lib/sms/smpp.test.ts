import { describe, expect, it } from "vitest";
import { readReceipt } from "./smpp";

/** Receipts as centres send them: some with the TLVs, many with the receipt text only (SMPP 3.4 Appendix B). */
describe("readReceipt", () => {
  it("reads the id and state from the receipt's text alone", () => {
    const text = "id:7f3a9c01 sub:001 dlvrd:000 submit date:2611281830 done date:2611281845 stat:UNDELIV err:001 text:";
    expect(readReceipt({ short_message: { message: text } })).toEqual({
      providerId: "7f3a9c01",
      delivered: false,
      state: "UNDELIV",
    });
    expect(readReceipt({ short_message: text.replace("UNDELIV", "DELIVRD") })).toMatchObject({ delivered: true });
  });

  it("prefers the TLVs, and reads the state from message_state when the text has none", () => {
    expect(readReceipt({ receipted_message_id: "abc", message_state: 3, short_message: { message: "" } })).toEqual({
      providerId: "abc",
      delivered: false,
      state: "EXPIRED",
    });
    expect(readReceipt({ receipted_message_id: "abc", message_state: 2 })).toMatchObject({ delivered: true });
  });

  it("is null for a message that is no receipt", () => {
    expect(readReceipt({ short_message: { message: "hello" } })).toBeNull();
    expect(readReceipt({ receipted_message_id: "abc" })).toBeNull();
  });
});
