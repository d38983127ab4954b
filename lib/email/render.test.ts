import { describe, expect, it } from "vitest";
import ar from "../i18n/messages/ar.json";
import en from "../i18n/messages/en.json";
import { formatMoney } from "../money";
import { orderLinkUrl, verifyOrderLinkKey } from "../orders/order-link";
import { renderOrderEmail, type EmailOrder } from "./render";

/** The two e-mails as a reader gets them, in both languages. */

const order: EmailOrder = {
  order: {
    id: "ord_0123456789abcdef",
    amountMinor: 10375,
    locale: "ar",
    fullName: "عائشة بن علي",
    email: "aisha@example.ly",
    phone: "0912345678",
    flags: [],
    createdAt: new Date("2026-11-20T10:00:00Z"),
  },
  lines: [
    { name: "Olive oil", unitMinor: 3250, quantity: 2 },
    { name: "زعفران", unitMinor: 3875, quantity: 1 },
  ],
  paidWith: "sadad",
};
const SITE = "https://shop.example.ly";
const ORDER_LINK_SECRET = "render-test-order-link-secret-of-32-characters";
const receipt = (locale: string, reason: "paid" | "resend" = "paid") =>
  renderOrderEmail({ kind: "receipt", reason, locale }, order, SITE, ORDER_LINK_SECRET);
const notice = (data: EmailOrder, reason: "paid" | "amount_mismatch" | "unconfirmed_report" = "paid", locale = "en") =>
  renderOrderEmail({ kind: "merchant_notice", reason, locale }, data, SITE);

describe("the receipt", () => {
  it.each([
    ["en", "ltr", en],
    ["ar", "rtl", ar],
  ] as const)(
    "in %s: the order number, the lines as sold, the total, the gateway and the link",
    async (lang, dir, t) => {
      const { subject, html, text } = await receipt(lang);
      const total = formatMoney(10375, lang);
      expect(subject).toBe(t.email.receipt.subject.replace("{id}", order.order.id).replace("{total}", total));
      expect(html).toMatch(new RegExp(`<html[^>]* dir="${dir}" lang="${lang}"`));
      for (const part of [html, text]) {
        expect(part).toContain(t.email.receipt.heading);
        expect(part).toContain(order.order.id);
        expect(part).toContain("Olive oil");
        expect(part).toContain("زعفران");
        expect(part).toContain(formatMoney(6500, lang)); // 2 × 32.50
        expect(part).toContain(total);
        expect(part).toContain(t.gateways.sadad);
        expect(part).toContain(orderLinkUrl(SITE, order.order.id, ORDER_LINK_SECRET));
      }
    },
  );

  it("is self-contained: no image, font, stylesheet or script is fetched, and the only link is the order's", async () => {
    for (const { html } of [await receipt("en"), await receipt("ar"), await notice(order)]) {
      expect(html).not.toMatch(/<img|<link|<script|@import|@font-face|url\(/i);
      const links = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((match) => match[1]);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links)
        expect(link).toMatch(
          new RegExp(`^${SITE}/(orders/${order.order.id}\\?key=[\\w-]{43}|admin/orders/${order.order.id})$`),
        );
    }
  });

  it("links to the order's page with its signed link: the order id and a signature that verifies, nothing personal", async () => {
    const { html } = await receipt("ar");
    const [href] = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    const url = new URL(href!);
    expect(url.origin + url.pathname).toBe(`${SITE}/orders/${order.order.id}`);
    expect([...url.searchParams.keys()]).toEqual(["key"]);
    expect(verifyOrderLinkKey(order.order.id, url.searchParams.get("key"), ORDER_LINK_SECRET)).toBe(true);
    expect(verifyOrderLinkKey("ord_0123456789abcdeg", url.searchParams.get("key"), ORDER_LINK_SECRET)).toBe(false);
    expect(verifyOrderLinkKey(order.order.id, url.searchParams.get("key"), `${ORDER_LINK_SECRET}-rotated`)).toBe(false);
    for (const personal of ["aisha", "0912345678", "عائشة", encodeURIComponent("عائشة")])
      expect(href).not.toContain(personal);
  });

  it("sent again, says it is a copy", async () => {
    expect((await receipt("en", "resend")).text).toContain(en.email.receipt.resent);
    expect((await receipt("en")).text).not.toContain(en.email.receipt.resent);
  });
});

describe("the merchant's notice", () => {
  it("names the order, the customer, the total and links to the back office, in the merchant's language", async () => {
    for (const [lang, t] of [
      ["en", en],
      ["ar", ar],
    ] as const) {
      const { subject, text, html } = await notice(order, "paid", lang);
      expect(subject).toBe(
        t.email.notice.subjectPaid.replace("{id}", order.order.id).replace("{total}", formatMoney(10375, lang)),
      );
      expect(html).toContain(`dir="${lang === "ar" ? "rtl" : "ltr"}"`);
      for (const fact of ["عائشة بن علي", "aisha@example.ly", "0912345678", `${SITE}/admin/orders/${order.order.id}`])
        expect(text).toContain(fact);
      expect(html).not.toContain('data-testid="email-flags"');
    }
  });

  it("spells out every flag of a flagged order", async () => {
    const flagged = { ...order, order: { ...order.order, flags: ["paid_after_expiry", "paid_manually"] as const } };
    const { subject, text } = await notice({
      ...flagged,
      order: { ...flagged.order, flags: [...flagged.order.flags] },
    });
    expect(subject).toContain("needs a look");
    expect(text).toContain(en.email.flags.paid_after_expiry);
    expect(text).toContain(en.email.flags.paid_manually);
  });

  it("for a payment with another amount: what arrived and what the order is for, and the flag", async () => {
    const mismatch: EmailOrder = {
      ...order,
      order: { ...order.order, flags: ["amount_mismatch"] },
      received: { amount: 10, currency: "LYD" },
    };
    const { subject, text } = await notice(mismatch, "amount_mismatch");
    expect(subject).toBe(`Order ${order.order.id}: a payment with another amount`);
    expect(text).toContain(`Received: ${formatMoney(1000, "en")}. The order is for ${formatMoney(10375, "en")}.`);
    expect(text).toContain(en.email.flags.amount_mismatch);
    const otherCurrency = await notice(
      { ...mismatch, received: { amount: "103.75", currency: "USD" } },
      "amount_mismatch",
    );
    expect(otherCurrency.text).toContain("Received: 103.75 USD.");
  });

  it("for a reported payment never confirmed: says so, and how to find and mark it, in the merchant's language", async () => {
    const unconfirmed: EmailOrder = { ...order, order: { ...order.order, flags: ["unconfirmed_report"] } };
    for (const [lang, t] of [
      ["en", en],
      ["ar", ar],
    ] as const) {
      const { subject, text } = await notice(unconfirmed, "unconfirmed_report", lang);
      expect(subject).toBe(
        t.email.notice.subjectUnconfirmed.replace("{id}", order.order.id).replace("{total}", formatMoney(10375, lang)),
      );
      for (const said of [
        t.email.notice.headingUnconfirmed,
        t.email.notice.introUnconfirmed,
        t.email.notice.reconcile,
        t.email.flags.unconfirmed_report,
        `${SITE}/admin/orders/${order.order.id}`,
      ])
        expect(text).toContain(said);
      expect(text).not.toContain(t.email.notice.introPaid);
    }
  });
});
