import { describe, expect, it } from "vitest";
import { segmentSms } from "./segments";

describe("segmentSms", () => {
  it.each([
    ["Latin, 160 characters", "a".repeat(160), "GSM-7", 1],
    ["Latin, 161 characters", "a".repeat(161), "GSM-7", 2],
    ["Latin, 306 characters (two parts of 153)", "a".repeat(306), "GSM-7", 2],
    ["Latin, 307 characters", "a".repeat(307), "GSM-7", 3],
    ["Arabic, 70 characters", "ب".repeat(70), "UCS-2", 1],
    ["Arabic, 71 characters", "ب".repeat(71), "UCS-2", 2],
    ["Arabic, 134 characters (two parts of 67)", "ب".repeat(134), "UCS-2", 2],
    ["Arabic, 135 characters", "ب".repeat(135), "UCS-2", 3],
    ["80 euro signs (each counts two)", "€".repeat(80), "GSM-7", 1],
    ["81 euro signs", "€".repeat(81), "GSM-7", 2],
    ["80 braces", "{}".repeat(40), "GSM-7", 1],
    ["81 braces", "{}".repeat(40) + "[", "GSM-7", 2],
    ["one Arabic letter in a Latin text", "a".repeat(69) + "ب", "UCS-2", 1],
    ["one Arabic letter makes 71 characters two parts", "a".repeat(70) + "ب", "UCS-2", 2],
  ] as const)("%s", (_, text, encoding, parts) => {
    const segments = segmentSms(text);
    expect(segments).toMatchObject({ encoding, parts });
    expect(segments.texts).toHaveLength(parts);
    expect(segments.texts.join("")).toBe(text);
  });

  it("splits a long Arabic text into parts of 67 characters", () => {
    const text = "طلبك رقم ١٢٣ في الطريق إليك. ".repeat(5);
    const { texts } = segmentSms(text);
    expect(texts.slice(0, -1).every((part) => part.length === 67)).toBe(true);
    expect(texts.join("")).toBe(text);
  });

  it("never splits an extension character's two septets across parts", () => {
    const text = "a".repeat(152) + "€" + "b".repeat(10);
    const { texts } = segmentSms(text);
    expect(texts).toEqual(["a".repeat(152), "€" + "b".repeat(10)]);
  });
});
