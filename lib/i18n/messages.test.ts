import { describe, expect, it } from "vitest";
import ar from "./messages/ar.json";
import en from "./messages/en.json";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** The simple `{name}` arguments of an ICU message (plural arguments count once, by name). */
const argumentsOf = (message: string) => new Set([...message.matchAll(/\{(\w+)(?:[,}])/g)].map((m) => m[1]));

describe("message catalogues", () => {
  const english = flatten(en);
  const arabic = flatten(ar);

  it("have the same keys in English and Arabic", () => {
    expect([...arabic.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it("use the same arguments in both languages", () => {
    for (const [key, message] of english) expect(argumentsOf(arabic.get(key) ?? ""), key).toEqual(argumentsOf(message));
  });

  it("have no empty messages", () => {
    for (const [key, message] of [...english, ...arabic]) expect(message.trim(), key).not.toBe("");
  });
});
