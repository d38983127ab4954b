/** @jsxImportSource hono/jsx */
/** @jsxRuntime automatic */
/**
 * The hosted payment pages of one environment, mounted at `PAGE_BASE[mode]`:
 *
 *   GET  /<token>                              landing: selection, summary, auto-submit, completed or error page
 *   POST /<token>/gateway                      chosen gateway + customer details → 303 to the gateway page
 *   GET  /<token>/gateway/<alias>              emulated gateway with Pay, Decline and Cancel
 *   POST /<token>/gateway/<alias>/complete     outcome=pay|decline|cancel → 303 to return_url / cancel_url
 */
import { Hono, type Context } from "hono";
import { gatewaysFor, PAGE_BASE, type Gateway, type Merchant, type Mode } from "../config";
import { requestLang } from "../http";
import type { Lang, PaymentStatus } from "../i18n";
import type { EmulatorState } from "../state";
import type { Payment } from "../store";
import {
  AutoSubmitPage,
  badgeFor,
  CompletedPage,
  ErrorPage,
  GatewayPage,
  renderPage,
  SelectionPage,
  SummaryPage,
  type PaymentPageProps,
} from "../views";

/** The 404 page for any unknown page URL. */
export function notFoundPage(c: Context): Response | Promise<Response> {
  return renderPage(c, <ErrorPage lang={requestLang(c)} kind="not-found" />, 404);
}

/** Appends `type` and `token` to a merchant URL, with `&` when it already has a query string. */
export function redirectTarget(url: string, type: "success" | "cancel", token: string): string {
  const target = new URL(url);
  const extra = new URLSearchParams({ type, token }).toString();
  target.search = target.search.length > 1 ? `${target.search}&${extra}` : `?${extra}`;
  return target.toString();
}

const OUTCOMES: Record<string, Exclude<PaymentStatus, "pending" | "expired">> = {
  pay: "paid",
  decline: "declined",
  cancel: "cancelled",
};

const isCompleted = (payment: Payment) => payment.status !== "pending" && payment.status !== "expired";

/** Where the customer goes back to for a completed payment: success → return_url, otherwise cancel_url. */
const outcomeHref = (payment: Payment) =>
  payment.status === "paid"
    ? redirectTarget(payment.return_url, "success", payment.token)
    : redirectTarget(payment.cancel_url, "cancel", payment.token);

/** A loaded pending-or-completed payment with everything a page needs. */
interface Loaded {
  payment: Payment;
  merchant: Merchant;
  lang: Lang;
  /** Page URLs of this payment, all carrying `?lang=`. */
  href(path?: string, lang?: Lang): string;
  props(path?: string): PaymentPageProps;
}

export function pageRoutes(state: EmulatorState, mode: Mode): Hono {
  const pages = new Hono();

  /** Finds the payment of the URL; answers 404 (unknown, other environment) or 410 (expired) itself. */
  const load = (c: Context): Loaded | Promise<Response> | Response => {
    state.maybePurge();
    const token = c.req.param("token") ?? "";
    const payment = state.store.payment(token, state.clock.now());
    const query = c.req.query("lang");
    // ?lang= wins, then the language of the create request, then Accept-Language.
    const lang: Lang = query === "ar" || query === "en" ? query : (payment?.lang ?? requestLang(c));
    const base = `${PAGE_BASE[mode]}/${encodeURIComponent(token)}`;
    const href = (path = "", to: Lang = lang) => `${base}${path}?lang=${to}`;
    const other: Lang = lang === "ar" ? "en" : "ar";
    const merchant = state.merchants.find((candidate) => candidate.id === payment?.merchantId);

    if (!payment || !merchant || payment.mode !== mode) {
      return renderPage(c, <ErrorPage lang={lang} kind="not-found" badge={badgeFor(mode, lang)} />, 404);
    }
    if (payment.status === "expired") {
      const badge = badgeFor(mode, lang);
      return renderPage(c, <ErrorPage lang={lang} kind="expired" otherLangHref={href("", other)} badge={badge} />, 410);
    }
    return {
      payment,
      merchant,
      lang,
      href,
      props: (path = "") => ({ payment, merchant, lang, otherLangHref: href(path, other) }),
    };
  };

  const allowedGateway = (merchant: Merchant, alias: unknown): Gateway | undefined =>
    gatewaysFor(merchant).find((gateway) => gateway.alias === alias);

  /** Marks a payment paid with `gateway`, and sends its webhook (the wait is bounded) before the customer is back. */
  const pay = async (payment: Payment, merchant: Merchant, gateway: Gateway) => {
    payment.status = "paid";
    payment.completedAt = state.clock.now();
    payment.gatewayUsed = gateway.alias;
    await state.webhooks.paymentSucceeded(payment, merchant);
  };

  pages.get("/:token", async (c) => {
    const loaded = load(c);
    if (!("payment" in loaded)) return loaded;
    const { payment, merchant, href, props } = loaded;
    if (state.settings.payOnView && !isCompleted(payment)) {
      await pay(payment, merchant, allowedGateway(merchant, payment.payment_gateway) ?? gatewaysFor(merchant)[0]!);
    }
    if (isCompleted(payment)) return renderPage(c, <CompletedPage {...props()} backHref={outcomeHref(payment)} />);

    const gateway = allowedGateway(merchant, payment.payment_gateway);
    if (!gateway) {
      const page = <SelectionPage {...props()} gateways={gatewaysFor(merchant)} action={href("/gateway")} />;
      return renderPage(c, page);
    }
    if (payment.full_name && payment.email && payment.phone) {
      const gatewayHref = href(`/gateway/${gateway.alias}`);
      return renderPage(c, <AutoSubmitPage {...props()} gateway={gateway} gatewayHref={gatewayHref} />);
    }
    return renderPage(c, <SummaryPage {...props()} gateway={gateway} action={href("/gateway")} />);
  });

  pages.post("/:token/gateway", async (c) => {
    const loaded = load(c);
    if (!("payment" in loaded)) return loaded;
    const { payment, merchant, href, props } = loaded;
    if (isCompleted(payment)) return renderPage(c, <CompletedPage {...props()} backHref={outcomeHref(payment)} />, 409);

    const form = await c.req.parseBody();
    const gateway = allowedGateway(merchant, payment.payment_gateway ?? form.gateway);
    if (!gateway) {
      const page = <SelectionPage {...props()} gateways={gatewaysFor(merchant)} action={href("/gateway")} error />;
      return renderPage(c, page, 400);
    }
    for (const field of ["full_name", "email", "phone"] as const) {
      const value = form[field];
      if (typeof value === "string") payment[field] = value.trim().slice(0, 255) || null;
    }
    return c.redirect(href(`/gateway/${gateway.alias}`), 303);
  });

  pages.get("/:token/gateway/:alias", (c) => {
    const loaded = load(c);
    if (!("payment" in loaded)) return loaded;
    const { payment, merchant, lang, href, props } = loaded;
    const alias = c.req.param("alias");
    if (isCompleted(payment)) return renderPage(c, <CompletedPage {...props()} backHref={outcomeHref(payment)} />);

    const gateway = allowedGateway(merchant, alias);
    if (!gateway || (payment.payment_gateway !== null && payment.payment_gateway !== alias)) {
      return renderPage(c, <ErrorPage lang={lang} kind="not-found" badge={badgeFor(mode, lang)} />, 404);
    }
    const path = `/gateway/${gateway.alias}`;
    return renderPage(c, <GatewayPage {...props(path)} gateway={gateway} action={href(`${path}/complete`)} />);
  });

  pages.post("/:token/gateway/:alias/complete", async (c) => {
    const loaded = load(c);
    if (!("payment" in loaded)) return loaded;
    const { payment, merchant, lang, props } = loaded;
    // Completed once: never redirect again with another outcome, never send a second webhook.
    if (isCompleted(payment)) return renderPage(c, <CompletedPage {...props()} backHref={outcomeHref(payment)} />, 409);

    const alias = c.req.param("alias");
    const gateway = allowedGateway(merchant, alias);
    const form = await c.req.parseBody();
    const outcome =
      typeof form.outcome === "string" && Object.hasOwn(OUTCOMES, form.outcome) ? OUTCOMES[form.outcome] : undefined;
    if (!gateway || !outcome || (payment.payment_gateway !== null && payment.payment_gateway !== alias)) {
      return renderPage(c, <ErrorPage lang={lang} kind="not-found" badge={badgeFor(mode, lang)} />, 404);
    }
    // The shop hears of the payment before the customer is back, unless it is too slow: the wait is bounded.
    if (outcome === "paid") await pay(payment, merchant, gateway);
    else {
      payment.status = outcome;
      payment.completedAt = state.clock.now();
      payment.gatewayUsed = gateway.alias;
    }
    return c.redirect(outcomeHref(payment), 303);
  });

  return pages;
}
