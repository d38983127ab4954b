import { describe, expect, it } from "vitest";
import { direction, resolveLocale } from "./config";

describe("resolveLocale", () => {
  it("prefers the cookie when it names a supported language", () => {
    expect(resolveLocale("ar", "en-US,en;q=0.9")).toBe("ar");
    expect(resolveLocale("en", "ar-LY")).toBe("en");
  });
  it("falls back to the best Accept-Language match", () => {
    expect(resolveLocale(undefined, "ar-LY,ar;q=0.9,en;q=0.8")).toBe("ar");
    expect(resolveLocale(undefined, "fr-FR,ar;q=0.5")).toBe("ar");
    expect(resolveLocale("de", "en-GB")).toBe("en");
  });
  it("defaults to English for nothing, nonsense or unsupported languages", () => {
    expect(resolveLocale(undefined, null)).toBe("en");
    expect(resolveLocale(undefined, "fr-FR,de")).toBe("en");
    expect(resolveLocale(undefined, "%%%;q=abc")).toBe("en");
  });
  it("gives Arabic right-to-left", () => {
    expect(direction("ar")).toBe("rtl");
    expect(direction("en")).toBe("ltr");
  });
});
