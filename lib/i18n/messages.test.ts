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

describe("the words for an order sent back by the cancel URL", () => {
  // The payment service sends a cancelled payment and a declined one to the same cancel URL (docs/payment-service.md,
  // "Return and cancel redirects"), so no page, e-mail or figure may call it only cancelled.
  const keys = [
    "order.status.cancelled.title",
    "order.status.cancelled.text",
    "orders.statuses.cancelled",
    "admin.filters.cancelled",
    "admin.dashboard.cancelled",
    "admin.events.returnTypes.cancel",
    "admin.flags.paid_after_cancel",
    "email.flags.paid_after_cancel",
  ];

  it("say cancelled or declined, in both languages", () => {
    const english = flatten(en);
    const arabic = flatten(ar);
    for (const key of keys) {
      expect(english.get(key), key).toMatch(/cancel.*declin/i);
      expect(arabic.get(key), key).toMatch(/(أُلغ|ألغ|ملغ|الإلغاء).*(رُفض|رفض|مرفوض|الرفض)/);
    }
  });
});

describe("the words for stock that open checkouts hold", () => {
  // Units held by a checkout come back when its payment page dies: the merchant's count of products with none
  // available (lib/catalog/back-office.ts, held stock included) must not call them sold, so no one restocks for them.
  it("say held beside sold out in the back office's stock alerts, in both languages", () => {
    const english = flatten(en);
    const arabic = flatten(ar);
    for (const key of ["admin.dashboard.soldOut", "admin.products.list.filters.sold_out"]) {
      expect(english.get(key), key).toMatch(/sold out or held/i);
      expect(arabic.get(key), key).toMatch(/(نفد|النافدة).*(حُجز|حجز|المحجوزة)/);
    }
    expect(english.get("admin.dashboard.left"), "admin.dashboard.left").not.toMatch(/sold out/i);
  });
});
