import { describe, expect, it } from "vitest";
import ar from "./i18n/messages/ar.json";
import en from "./i18n/messages/en.json";
import { DEFAULT_GATEWAYS, gatewayName, localiseGateways, parseGatewayList } from "./gateways";

/** The checkout's gateway picker as each shopper reads it (app/(shop)/checkout/page.tsx builds it with these). */
describe("gateway names in the shopper's language", () => {
  const everyKnown = parseGatewayList(`${DEFAULT_GATEWAYS.map((g) => g.alias).join(",")},prepaid-card`);
  if (!everyKnown.ok) throw new Error(everyKnown.error);

  it("shows every known gateway in Arabic script on the Arabic picker, none in Latin letters", () => {
    const names = localiseGateways(everyKnown.gateways, ar.gateways).map((g) => g.name);
    expect(names).toHaveLength(8);
    for (const name of names) {
      expect(name, name).toMatch(/^[\u0600-\u06FF\s()]+$/);
    }
    expect(names[0]).toBe("بطاقة مصرفية (معاملات)");
  });

  it("keeps the English names on the English picker, and the aliases in both", () => {
    expect(localiseGateways(everyKnown.gateways, en.gateways)).toEqual(everyKnown.gateways);
    expect(localiseGateways(everyKnown.gateways, ar.gateways).map((g) => g.alias)).toEqual(
      everyKnown.gateways.map((g) => g.alias),
    );
  });

  it("shows a name the merchant gave as given, and an unknown alias as configured, in every language", () => {
    const configured = parseGatewayList("sadad=سداد الخاص بمتجرنا,moamalat=Visa / Mastercard,new-wallet");
    if (!configured.ok) throw new Error(configured.error);
    expect(localiseGateways(configured.gateways, ar.gateways).map((g) => g.name)).toEqual([
      "سداد الخاص بمتجرنا",
      "Visa / Mastercard",
      "new-wallet",
    ]);
  });

  it("names an alias reported by the service in the reader's language", () => {
    expect(gatewayName("edfali", ar.gateways)).toBe("ادفع لي");
    expect(gatewayName("edfali", en.gateways)).toBe("Edfali");
    expect(gatewayName("some-new-wallet", ar.gateways)).toBe("some-new-wallet");
  });
});
