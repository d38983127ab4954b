import { describe, expect, it } from "vitest";
import { hasDirectionControl, typedText } from "./typed-text";

/** The back office's typed text (lib/typed-text.ts): what a product's or a city's name and description may hold. */

const name = typedText(100, { tooLong: "tooLong", control: "control" });
const description = typedText(1000, { tooLong: "tooLong", control: "control" }, { multiline: true });
const problem = (schema: typeof name, value: string) => schema.safeParse(value).error?.issues[0]?.message;

describe("typed text", () => {
  it("refuses the direction controls that make a text read other than it is, in one line or many", () => {
    for (const character of [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ]) {
      expect(problem(name, `Bowl ${character}gpj.exe`)).toBe("control");
      expect(problem(description, `A bowl.\n${character}Handmade`)).toBe("control");
    }
  });

  it("keeps the direction marks Arabic keyboards type, and line breaks in a description", () => {
    expect(name.parse(" وعاء\u200F (Bowl)\u200E ")).toBe("وعاء\u200F (Bowl)\u200E");
    expect(description.parse("A bowl.\nوعاء\u061C.")).toBe("A bowl.\nوعاء\u061C.");
    expect(hasDirectionControl("Bowl \u200F")).toBe(false);
  });
});
