import { describe, expect, it } from "vitest";
import { SMS_REASONS } from "../db/schema";
import { verifyOrderLinkKey } from "../orders/order-link";
import { segmentSms } from "./segments";
import { smsText } from "./texts";

const SECRET = "a-test-order-link-secret-of-32-characters-or-more";
const SITE = "https://shop.example.ly";
const order = { id: "ord_0123456789abcdef", amountMinor: 12_500, refundMinor: 2_000 };

describe("smsText", () => {
  describe.each(["en", "ar"] as const)("in %s", (locale) => {
    it.each(SMS_REASONS)("%s: the order number and its working signed link", (reason) => {
      const text = smsText(reason, { ...order, locale }, SITE, SECRET);
      expect(text).toContain(order.id);
      const link = new URL(text.match(/https:\/\/\S+/)![0]);
      expect(link.origin + link.pathname).toBe(`${SITE}/orders/${order.id}`);
      expect(verifyOrderLinkKey(order.id, link.searchParams.get("key"), SECRET)).toBe(true);
      // Short: two parts in English, three in Arabic (UCS-2, 67 a part) with a link of about 100 characters.
      expect(segmentSms(text).parts).toBeLessThanOrEqual(locale === "ar" ? 3 : 2);
    });
  });

  it("writes Arabic for an Arabic order and English for English", () => {
    expect(smsText("out_for_delivery", { ...order, locale: "ar" }, SITE, SECRET)).toContain("في الطريق إليك");
    expect(smsText("out_for_delivery", { ...order, locale: "en" }, SITE, SECRET)).toContain("out for delivery");
    // The total's no-break space would make the whole English receipt UCS-2 (70 a part).
    expect(segmentSms(smsText("paid", { ...order, locale: "en" }, SITE, SECRET)).encoding).toBe("GSM-7");
  });

  it("says the total of a receipt and the amount of a refund", () => {
    expect(smsText("paid", { ...order, locale: "en" }, SITE, SECRET)).toContain("LYD 125.00");
    expect(smsText("refunded", { ...order, locale: "en" }, SITE, SECRET)).toContain("LYD 20.00 refunded");
  });
});
