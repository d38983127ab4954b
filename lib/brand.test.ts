import { describe, expect, it } from "vitest";
import { BRAND } from "./brand";
import ar from "./i18n/messages/ar.json";
import en from "./i18n/messages/en.json";

type Tree = { [key: string]: string | Tree };
const messages = (tree: Tree): string[] =>
  Object.values(tree).flatMap((value) => (typeof value === "string" ? [value] : messages(value)));

describe("the brand", () => {
  // A merchant who changes lib/brand.ts leaves nothing of the demo behind: the catalogues say what the shop does, and
  // never which shop it is.
  it("is the only place that names the shop or calls it a demo", () => {
    const named = [BRAND.name.en, BRAND.name.ar, BRAND.headline.en, BRAND.headline.ar, "Medina"];
    const naming = [...messages(en), ...messages(ar)].filter(
      (message) => /\bdemo\b|تجريبي/i.test(message) || named.some((name) => message.includes(name)),
    );
    expect(naming).toEqual([]);
  });
});
