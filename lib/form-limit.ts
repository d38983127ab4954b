import { createTranslator } from "next-intl";
import type { NextRequest } from "next/server";
import ar from "./i18n/messages/ar.json";
import en from "./i18n/messages/en.json";
import { direction, LOCALE_COOKIE, resolveLocale } from "./i18n/config";

/**
 * The largest form the shop reads. Next.js refuses a server action body over 1 MB (`serverActions.bodySizeLimit`)
 * with a bare "Internal Server Error", before any of the shop's code runs, so the proxy refuses anything over this
 * first, with a page that says what happened. Every form of the shop is far smaller: the checkout with a 100-character
 * name and the form state React sends along is about 1 KB; the largest (the admin's note) is under 4 KB.
 */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * The one larger form: the back office's payment list (app/admin/reconcile), a list of up to 512 KB
 * (lib/admin/payment-list.ts, `MAX_LIST_BYTES`, which the page itself refuses with a message) and the form around it;
 * still under Next.js's 1 MB.
 */
export const MAX_LIST_FORM_BYTES = 576 * 1024;
const LIST_FORM_PATH = "/admin/reconcile";

/** The largest form a page reads: the payment list's, or every other form's. */
function formLimit(pathname: string): number {
  return pathname === LIST_FORM_PATH ? MAX_LIST_FORM_BYTES : MAX_FORM_BYTES;
}

/** A POST that Next.js may read as a server action: a form, or the client's own action call, to a page. */
function isFormPost(request: NextRequest): boolean {
  // Route handlers (the webhook) read and limit their own bodies; only pages run server actions.
  if (request.method !== "POST" || request.nextUrl.pathname.startsWith("/api/")) return false;
  const type = request.headers.get("content-type") ?? "";
  return (
    request.headers.has("next-action") || /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The answer to a form post too large to read (413, a short page in the shopper's language with a way back), or
 * `null` to let the request through. Decided by `Content-Length`, which browsers always send with a form; a body
 * without one is left to Next.js's own limit.
 * @param nonce the response's CSP nonce, for the page's one `<style>`.
 */
export function refuseOversizedForm(request: NextRequest, nonce: string): Response | null {
  const length = Number(request.headers.get("content-length") ?? 0);
  const limit = formLimit(request.nextUrl.pathname);
  if (!isFormPost(request) || !(length > limit)) return null;
  const locale = resolveLocale(request.cookies.get(LOCALE_COOKIE)?.value, request.headers.get("accept-language"));
  const t = createTranslator({ locale, messages: locale === "ar" ? ar : en, namespace: "formTooLarge" });
  // Back to the page the form was on, as a plain GET: the form is shown again there.
  const back = escapeHtml(request.nextUrl.pathname);
  const html = `<!doctype html>
<html lang="${locale}" dir="${direction(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t("title"))}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1c1917}a{color:#166534}</style></head>
<body><main><h1>${escapeHtml(t("title"))}</h1><p>${escapeHtml(t(limit === MAX_FORM_BYTES ? "text" : "textList", { size: limit / 1024 }))}</p><p><a href="${back}">${escapeHtml(t("back"))}</a></p></main></body>
</html>`;
  return new Response(html, {
    status: 413,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
