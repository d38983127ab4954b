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

  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)(
    "in %s, for a cash order whose cash was collected: paid in cash, never by the payment service",
    async (lang, t) => {
      const collected: EmailOrder = { ...order, order: { ...order.order, paymentMethod: "cash" }, paidWith: null };
      const { text } = await renderOrderEmail(
        { kind: "receipt", reason: "resend", locale: lang },
        collected,
        SITE,
        ORDER_LINK_SECRET,
      );
      expect(text).toContain(t.email.receipt.cashHeading);
      expect(text).toContain(t.email.receipt.cashIntro.replace("{total}", formatMoney(10375, lang)));
      expect(text).toContain(t.email.receipt.cashPaidWith);
      expect(text).not.toContain(t.email.receipt.intro);
      const { text: merchant } = await notice(collected);
      expect(merchant).toContain(en.email.notice.introCashPaid);
      expect(merchant).not.toContain(en.email.notice.introPaid);
    },
  );

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

describe("the notice of an expired order whose payment the shop may have missed", () => {
  it("names the order, says it may have been paid and to check the payment list, in the merchant's language", async () => {
    const unseen: EmailOrder = {
      ...order,
      order: { ...order.order, flags: ["check_payment_list"] },
    };
    for (const [lang, t] of [
      ["en", en],
      ["ar", ar],
    ] as const) {
      const { subject, text } = await notice(unseen, "unconfirmed_report", lang);
      expect(subject).toBe(
        t.email.notice.subjectCheckList.replace("{id}", order.order.id).replace("{total}", formatMoney(10375, lang)),
      );
      for (const said of [
        t.email.notice.headingCheckList,
        t.email.notice.introCheckList,
        t.email.notice.reconcile,
        t.email.flags.check_payment_list,
        `${SITE}/admin/orders/${order.order.id}`,
      ])
        expect(text).toContain(said);
      expect(text).not.toContain(t.email.notice.introUnconfirmed);
    }
  });
});

const delivered: EmailOrder = {
  ...order,
  order: {
    ...order.order,
    amountMinor: 10375 + 3500,
    deliveryMethod: "delivery",
    deliveryCityEn: "Benghazi",
    deliveryCityAr: "بنغازي",
    deliveryAddress: "الفويهات، شارع جمال عبد الناصر",
    deliveryLandmark: "قرب مسجد عصمان",
    secondPhone: "0923456789",
    deliveryFeeMinor: 3500,
  },
};
const pickedUp: EmailOrder = {
  ...order,
  order: { ...order.order, deliveryMethod: "pickup" },
  pickup: {
    enabled: true,
    address: { en: "12 Omar Al-Mukhtar St., Tripoli", ar: "12 شارع عمر المختار، طرابلس" },
    hours: { en: "Sat–Thu, 9:00–21:00", ar: "السبت–الخميس، 9:00–21:00" },
  },
};
const update = (
  data: EmailOrder,
  reason: "packed" | "out_for_delivery" | "delivered" | "ready_for_pickup" | "picked_up",
  locale: string,
) => renderOrderEmail({ kind: "fulfilment_update", reason, locale }, data, SITE);

describe("the customer's update of a step", () => {
  it.each([
    ["en", "ltr", en, "Benghazi"],
    ["ar", "rtl", ar, "بنغازي"],
  ] as const)(
    "in %s: what happened, the way so far, the address, the items with the fee's line, and the order's link",
    async (lang, dir, t, city) => {
      const { subject, html, text } = await update(delivered, "out_for_delivery", lang);
      expect(subject).toBe(t.email.update.out_for_delivery.subject.replace("{id}", order.order.id));
      expect(html).toMatch(new RegExp(`<html[^>]* dir="${dir}" lang="${lang}"`));
      for (const part of [html, text]) {
        expect(part).toContain(t.email.update.out_for_delivery.heading);
        expect(part).toContain(t.email.update.out_for_delivery.intro);
        expect(part).toContain(`✓ ${t.email.update.steps.packed}`);
        expect(part).toContain(`✓ ${t.email.update.steps.out_for_delivery}`);
        expect(part).toContain(`○ ${t.email.update.steps.delivered}`);
        expect(part).toContain(`${city} — الفويهات، شارع جمال عبد الناصر`);
        expect(part).toContain("قرب مسجد عصمان");
        expect(part).toContain("Olive oil");
        expect(part).toContain(t.email.lines.deliveryFee.replace("{city}", city));
        expect(part).toContain(formatMoney(3500, lang));
        expect(part).toContain(formatMoney(13875, lang));
        expect(part).toContain(`${SITE}/orders/${order.order.id}`);
      }
      // Never the merchant's business: no back-office link, no second phone.
      expect(html).not.toContain("/admin/");
      expect(text).not.toContain("0923456789");
    },
  );

  it("each step says its own news; the last thanks the customer by the shop's name", async () => {
    const subjects = new Set<string>();
    for (const reason of ["packed", "out_for_delivery", "delivered"] as const)
      subjects.add((await update(delivered, reason, "en")).subject);
    expect(subjects.size).toBe(3);
    expect((await update(delivered, "delivered", "ar")).text).toContain(
      ar.email.update.delivered.intro.replace("{shop}", "سوق المدينة"),
    );
  });

  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)("for a pickup, in %s: where and when to collect, and no fee", async (lang, t) => {
    const { subject, text, html } = await update(pickedUp, "ready_for_pickup", lang);
    expect(subject).toBe(t.email.update.ready_for_pickup.subject.replace("{id}", order.order.id));
    expect(text).toContain(t.email.update.ready_for_pickup.heading);
    expect(text).toContain(pickedUp.pickup!.address[lang]);
    expect(text).toContain(pickedUp.pickup!.hours[lang]);
    expect(html).not.toContain('data-testid="email-fee"');
  });

  it("refuses a step that is not of the order's way rather than tell the customer something false", async () => {
    await expect(update(delivered, "ready_for_pickup", "en")).rejects.toThrow();
    await expect(update(order, "packed", "en")).rejects.toThrow();
  });
});

describe("the delivery's details in the receipt and the merchant's notice", () => {
  it("the receipt: the fee's own line and where the goods go, in the order's language", async () => {
    for (const [lang, t, city] of [
      ["en", en, "Benghazi"],
      ["ar", ar, "بنغازي"],
    ] as const) {
      const { text, html } = await renderOrderEmail({ kind: "receipt", reason: "paid", locale: lang }, delivered, SITE);
      expect(html).toContain('data-testid="email-fee"');
      expect(text).toContain(t.email.lines.deliveryFee.replace("{city}", city));
      expect(text).toContain(`${city} — الفويهات، شارع جمال عبد الناصر`);
      expect(text).toContain(formatMoney(13875, lang));
    }
    expect((await receipt("en")).html).not.toContain('data-testid="email-fee"');
  });

  it("the notice: method, city, address, landmark and both phones for the merchant", async () => {
    const { text } = await notice(delivered, "paid", "en");
    for (const fact of [
      en.email.lines.deliveryFee.replace("{city}", "Benghazi"),
      "الفويهات، شارع جمال عبد الناصر",
      "قرب مسجد عصمان",
      "0912345678",
      "0923456789",
    ])
      expect(text).toContain(fact);
    expect((await notice(pickedUp, "paid", "ar")).text).toContain(ar.email.notice.pickup);
  });
});

describe("the e-mails of a cash order just placed", () => {
  const cashOrder: EmailOrder = {
    ...delivered,
    order: {
      ...delivered.order,
      amountMinor: 10375 + 3500 + 500,
      paymentMethod: "cash",
      cashFeeMinor: 500,
      confirmBy: new Date("2026-11-22T10:00:00Z"),
    },
    paidWith: null,
  };
  const placed = (kind: "receipt" | "merchant_notice", locale: string) =>
    renderOrderEmail({ kind, reason: "cash_placed", locale }, cashOrder, SITE, ORDER_LINK_SECRET);

  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)(
    "in %s, the customer's: we will call you on your phone to confirm; the cash fee's own line",
    async (lang, t) => {
      const { subject, text, html } = await placed("receipt", lang);
      const total = formatMoney(14375, lang);
      expect(subject).toBe(t.email.cash.subject.replace("{id}", cashOrder.order.id));
      expect(text).toContain(t.email.cash.heading);
      expect(text).toContain(t.email.cash.intro.replace("{phone}", "0912345678").replace("{total}", total));
      expect(text).toContain(t.email.cash.fee);
      expect(text).toContain(formatMoney(500, lang));
      expect(html).toContain(orderLinkUrl(SITE, cashOrder.order.id, ORDER_LINK_SECRET));
      // Nothing was paid yet: the receipt of a payment says none of it.
      expect(text).not.toContain(t.email.receipt.heading);
    },
  );

  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)(
    "in %s, the merchant's: a new cash order to confirm by phone, its deadline and the phone",
    async (lang, t) => {
      const { subject, text } = await placed("merchant_notice", lang);
      expect(subject).toBe(
        t.email.cash.noticeSubject.replace("{id}", cashOrder.order.id).replace("{total}", formatMoney(14375, lang)),
      );
      expect(text).toContain(t.email.cash.noticeHeading);
      expect(text).toContain(t.email.cash.noticeDeadline);
      expect(text).toContain("0912345678");
      expect(text).toContain(`${SITE}/admin/orders/${cashOrder.order.id}`);
    },
  );
});

describe("the e-mails of an order priced with a promo code", () => {
  // 10 % of 42.50 is 4.25 off the lines; delivery 15.00: 53.25 paid, the amount the service was asked for.
  const discounted: EmailOrder = {
    ...delivered,
    order: { ...delivered.order, amountMinor: 5325, deliveryFeeMinor: 1500, promoCode: "EID10", discountMinor: 425 },
    lines: [{ name: "Olive oil", unitMinor: 2125, quantity: 2 }],
  };
  /** The discount line's label in the e-mail's language. */
  const discountLine = (t: typeof en) => t.email.promo.line.replace("{code}", "EID10");

  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)(
    "in %s, the receipt, the merchant's notice and a step's news show the discount's own line",
    async (lang, t) => {
      for (const { text, html } of [
        await renderOrderEmail({ kind: "receipt", reason: "paid", locale: lang }, discounted, SITE, ORDER_LINK_SECRET),
        await notice(discounted, "paid", lang),
        await update(discounted, "packed", lang),
      ]) {
        for (const part of [text, html]) {
          expect(part).toContain(discountLine(t));
          expect(part).toContain(formatMoney(-425, lang));
          expect(part).toContain(formatMoney(5325, lang));
        }
        // After the delivery's line, before the total.
        expect(text.indexOf(formatMoney(1500, lang))).toBeLessThan(text.indexOf(discountLine(t)));
        expect(text.indexOf(discountLine(t))).toBeLessThan(text.lastIndexOf(formatMoney(5325, lang)));
      }
      // Without a code, no such line.
      expect((await notice(delivered, "paid", lang)).text).not.toContain(discountLine(t));
    },
  );

  it("in a cash order's e-mails: the cash fee's line, then the discount's; a code that took nothing off reads 0.00", async () => {
    const cash: EmailOrder = {
      ...discounted,
      order: { ...discounted.order, amountMinor: 5325 + 500, paymentMethod: "cash", cashFeeMinor: 500 },
      paidWith: null,
    };
    const { text } = await renderOrderEmail({ kind: "receipt", reason: "cash_placed", locale: "en" }, cash, SITE);
    expect(text.indexOf(en.email.cash.fee)).toBeLessThan(text.indexOf("Discount (EID10)"));
    expect(text).toContain(formatMoney(5825, "en"));
    const pickup: EmailOrder = {
      ...pickedUp,
      order: { ...pickedUp.order, promoCode: "FREESHIP", discountMinor: 0 },
    };
    const free = (await renderOrderEmail({ kind: "receipt", reason: "paid", locale: "en" }, pickup, SITE)).text;
    expect(free).toContain("Discount (FREESHIP)");
    expect(free).not.toContain("-LYD 0.00");
  });
});

describe("the customer's news after the sale", () => {
  const paid = { ...order, order: { ...order.order, paidAt: new Date("2026-11-20T10:05:00Z") } };
  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)("in %s: a cancelled paid order says its payment will be refunded", async (lang, t) => {
    const cancelled = { ...paid, order: { ...paid.order, cancelledAt: new Date("2026-11-21T09:00:00Z") } };
    const { subject, text } = await renderOrderEmail(
      { kind: "after_sale", reason: "cancelled", locale: lang },
      cancelled,
      SITE,
      ORDER_LINK_SECRET,
    );
    expect(subject).toBe(t.email.afterSale.cancelledSubject.replace("{id}", order.order.id));
    expect(text).toContain(t.email.afterSale.cancelledHeading);
    expect(text).toContain(t.email.afterSale.cancelledRefund.replace("{total}", formatMoney(10375, lang)));
    expect(text).toContain(orderLinkUrl(SITE, order.order.id, ORDER_LINK_SECRET));
  });

  it.each([
    ["en", en],
    ["ar", ar],
  ] as const)("in %s: a refund says how much, its reference, and how much in all", async (lang, t) => {
    const refunded = {
      ...paid,
      order: { ...paid.order, refundedMinor: 4000 },
      refund: { amountMinor: 1250, reference: "RF-1001" },
    };
    const { subject, text } = await renderOrderEmail(
      { kind: "after_sale", reason: "refunded", locale: lang },
      refunded,
      SITE,
      ORDER_LINK_SECRET,
    );
    const amount = formatMoney(1250, lang);
    expect(subject).toBe(t.email.afterSale.refundedSubject.replace("{amount}", amount).replace("{id}", order.order.id));
    expect(text).toContain(t.email.afterSale.refundedOnline.replace("{amount}", amount));
    expect(text).toContain("RF-1001");
    expect(text).toContain(formatMoney(4000, lang));
  });
});
