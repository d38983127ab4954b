/** @jsxImportSource hono/jsx */
/** @jsxRuntime automatic */
/**
 * The HTML of the hosted payment pages (and the layout of the index page), server-rendered without any JavaScript.
 * Every value from the merchant or the customer goes through JSX, which escapes it; only the static stylesheet below
 * is inserted raw.
 */
import type { Context } from "hono";
import { html, raw } from "hono/html";
import type { Child, FC } from "hono/jsx";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Gateway, Merchant, Mode } from "./config";
import { PAGE_TEXT, type Lang } from "./i18n";
import type { Payment } from "./store";
import { formatLibyanPhone } from "./validation";

const STYLES = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",Tahoma,sans-serif;background:#f3f4f6;color:#111827;line-height:1.5}
main{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.topbar{display:flex;justify-content:space-between;align-items:center;gap:1rem;font-size:.875rem;color:#4b5563}
.badge{background:#fef3c7;color:#78350f;padding:.125rem .5rem;border-radius:999px}
h1{font-size:1.375rem;margin:1rem 0}
.merchant{font-weight:600;margin:1rem 0 0}
.amount{font-size:2rem;font-weight:700;margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1rem}
dt{color:#4b5563}
dd{margin:0;overflow-wrap:anywhere}
fieldset{border:1px solid #e5e7eb;border-radius:.5rem;margin:0 0 1rem;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.option{display:flex;align-items:center;gap:.5rem;padding:.375rem 0}
.field{display:block;margin:.5rem 0}
.field input{display:block;width:100%;margin-top:.25rem;padding:.5rem;border:1px solid #9ca3af;border-radius:.375rem;font:inherit}
button,.button{display:block;width:100%;padding:.75rem;margin:.5rem 0;border:1px solid #9ca3af;border-radius:.5rem;background:#fff;color:#111827;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.primary{background:#047857;border-color:#047857;color:#fff}
.error{color:#b91c1c;font-weight:600}
.hint{color:#4b5563}
table{border-collapse:collapse;font-size:.8125rem;width:100%}
th,td{padding:.25rem;text-align:start;border-bottom:1px solid #e5e7eb;vertical-align:top}
code{overflow-wrap:anywhere}
`;

/** No scripts at all, no framing, no caching: a payment page needs none of them. */
const PAGE_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

/** Sends a page with `<!doctype html>` in front (JSX cannot produce it) and the headers above. */
export function renderPage(
  c: Context,
  page: HtmlEscapedString | Promise<HtmlEscapedString>,
  status: ContentfulStatusCode = 200,
): Response | Promise<Response> {
  return c.html(html`<!doctype html>${page}`, status, PAGE_HEADERS);
}

interface LayoutProps {
  lang: Lang;
  title: string;
  /** Same page in the other language. */
  otherLangHref?: string;
  /** `<meta http-equiv="refresh">` target, shown after two seconds (works with JavaScript off). */
  refreshTo?: string;
  badge?: string;
  children?: Child;
}

/** The HTML document: `lang` and `dir` on `<html>`, one `<main>`. */
export const Layout: FC<LayoutProps> = ({ lang, title, otherLangHref, refreshTo, badge, children }) => (
  <html lang={lang} dir={lang === "ar" ? "rtl" : "ltr"}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      {refreshTo ? <meta http-equiv="refresh" content={`2;url=${refreshTo}`} /> : null}
      <title>{title}</title>
      <style>{raw(STYLES)}</style>
    </head>
    <body>
      <main>
        <div class="topbar">
          <span class="badge">{badge ?? PAGE_TEXT[lang].sandboxBadge}</span>
          {otherLangHref ? (
            <a href={otherLangHref} hreflang={lang === "ar" ? "en" : "ar"} lang={lang === "ar" ? "en" : "ar"}>
              {PAGE_TEXT[lang].otherLanguage}
            </a>
          ) : null}
        </div>
        {children}
      </main>
    </body>
  </html>
);

/** Props shared by the pages of one payment. */
export interface PaymentPageProps {
  payment: Payment;
  merchant: Merchant;
  lang: Lang;
  otherLangHref: string;
}

/** The environment badge of the top bar. */
export const badgeFor = (mode: Mode, lang: Lang) =>
  mode === "sandbox" ? PAGE_TEXT[lang].sandboxBadge : PAGE_TEXT[lang].productionBadge;

/** The layout of a payment's pages: environment badge and language switch from the payment. */
const PaymentLayout: FC<PaymentPageProps & { title: string; refreshTo?: string; children?: Child }> = (props) => (
  <Layout
    lang={props.lang}
    title={props.title}
    refreshTo={props.refreshTo}
    otherLangHref={props.otherLangHref}
    badge={badgeFor(props.payment.mode, props.lang)}
  >
    {props.children}
  </Layout>
);

/** Merchant, amount, order reference and the customer details sent at create. */
const Summary: FC<{ payment: Payment; merchant: Merchant; lang: Lang }> = ({ payment, merchant, lang }) => {
  const t = PAGE_TEXT[lang];
  const customer = [payment.full_name, payment.email, payment.phone && formatLibyanPhone(payment.phone)].filter(
    (value): value is string => Boolean(value),
  );
  return (
    <section>
      <p class="merchant">{merchant.name}</p>
      <p class="amount">
        <span dir="ltr">
          {payment.amount} {payment.currency}
        </span>
      </p>
      <dl>
        {payment.custom ? (
          <>
            <dt>{t.reference}</dt>
            <dd>{payment.custom}</dd>
          </>
        ) : null}
        {customer.length > 0 ? (
          <>
            <dt>{t.customer}</dt>
            <dd>
              {customer.map((value, index) => (
                <>
                  {index > 0 ? <br /> : null}
                  <bdi>{value}</bdi>
                </>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
};

/** Full name, email and phone inputs, pre-filled with what the merchant sent. */
const DetailsFields: FC<{ payment: Payment; lang: Lang }> = ({ payment, lang }) => {
  const t = PAGE_TEXT[lang];
  return (
    <fieldset>
      <legend>{t.customer}</legend>
      <label class="field">
        {t.fullName}
        <input name="full_name" autocomplete="name" maxlength={255} value={payment.full_name ?? ""} />
      </label>
      <label class="field">
        {t.email}
        <input name="email" type="email" dir="ltr" autocomplete="email" maxlength={255} value={payment.email ?? ""} />
      </label>
      <label class="field">
        {t.phone}
        <input
          name="phone"
          type="tel"
          dir="ltr"
          autocomplete="tel"
          maxlength={32}
          value={payment.phone ? formatLibyanPhone(payment.phone) : ""}
        />
      </label>
    </fieldset>
  );
};

/** No `payment_gateway` sent: one radio per gateway (labelled with its display name), details, "Continue". */
export const SelectionPage: FC<PaymentPageProps & { gateways: Gateway[]; action: string; error?: boolean }> = (
  props,
) => {
  const t = PAGE_TEXT[props.lang];
  return (
    <PaymentLayout {...props} title={t.chooseGateway}>
      <h1>{t.chooseGateway}</h1>
      <Summary {...props} />
      {props.error ? (
        <p class="error" role="alert">
          {t.chooseGatewayError}
        </p>
      ) : null}
      <form method="post" action={props.action}>
        <fieldset>
          <legend>{t.gatewayLegend}</legend>
          {props.gateways.map((gateway) => (
            <label class="option">
              <input type="radio" name="gateway" value={gateway.alias} required />
              {gateway.name[props.lang]}
            </label>
          ))}
        </fieldset>
        <DetailsFields payment={props.payment} lang={props.lang} />
        <button type="submit" class="primary">
          {t.continue}
        </button>
      </form>
    </PaymentLayout>
  );
};

/** `payment_gateway` sent, details incomplete: summary, pre-filled details, "Continue to <gateway>". */
export const SummaryPage: FC<PaymentPageProps & { gateway: Gateway; action: string }> = (props) => {
  const t = PAGE_TEXT[props.lang];
  const name = props.gateway.name[props.lang];
  return (
    <PaymentLayout {...props} title={t.continueTo(name)}>
      <h1>{t.continueTo(name)}</h1>
      <Summary {...props} />
      <form method="post" action={props.action}>
        <input type="hidden" name="gateway" value={props.gateway.alias} />
        <DetailsFields payment={props.payment} lang={props.lang} />
        <button type="submit" class="primary">
          {t.continueTo(name)}
        </button>
      </form>
    </PaymentLayout>
  );
};

/** Gateway and all details sent (auto-submit): a brief summary, then on to the gateway page by itself. */
export const AutoSubmitPage: FC<PaymentPageProps & { gateway: Gateway; gatewayHref: string }> = (props) => {
  const t = PAGE_TEXT[props.lang];
  const heading = t.redirectingTo(props.gateway.name[props.lang]);
  return (
    <PaymentLayout {...props} title={heading} refreshTo={props.gatewayHref}>
      <h1>{heading}</h1>
      <Summary {...props} />
      <p class="hint">{t.redirectingHint}</p>
      <a class="button primary" href={props.gatewayHref}>
        {t.continueNow}
      </a>
    </PaymentLayout>
  );
};

/** The emulated gateway: the customer decides how the payment ends. */
export const GatewayPage: FC<PaymentPageProps & { gateway: Gateway; action: string }> = (props) => {
  const t = PAGE_TEXT[props.lang];
  return (
    <PaymentLayout {...props} title={props.gateway.name[props.lang]}>
      <h1>{props.gateway.name[props.lang]}</h1>
      <Summary {...props} />
      <p class="hint">{t.gatewayHint}</p>
      <form method="post" action={props.action}>
        <button type="submit" name="outcome" value="pay" class="primary">
          {t.pay}
        </button>
        <button type="submit" name="outcome" value="decline">
          {t.decline}
        </button>
        <button type="submit" name="outcome" value="cancel">
          {t.cancel}
        </button>
      </form>
    </PaymentLayout>
  );
};

/** A payment that is paid, declined or cancelled: it says so, and links back with the same outcome. */
export const CompletedPage: FC<PaymentPageProps & { backHref: string }> = (props) => {
  const t = PAGE_TEXT[props.lang];
  return (
    <PaymentLayout {...props} title={t.completedTitle}>
      <h1>{t.completedTitle}</h1>
      <Summary {...props} />
      <p>{t.completedBody(t.status[props.payment.status])}</p>
      <a class="button" href={props.backHref}>
        {t.backToMerchant}
      </a>
    </PaymentLayout>
  );
};

/** Unknown token (404) or expired page (410). */
export const ErrorPage: FC<{ lang: Lang; kind: "not-found" | "expired"; otherLangHref?: string; badge?: string }> = ({
  lang,
  kind,
  otherLangHref,
  badge,
}) => {
  const t = PAGE_TEXT[lang];
  const [title, body] = kind === "expired" ? [t.expiredTitle, t.expiredBody] : [t.notFoundTitle, t.notFoundBody];
  return (
    <Layout lang={lang} title={title} otherLangHref={otherLangHref} badge={badge}>
      <h1>{title}</h1>
      <p>{body}</p>
    </Layout>
  );
};
