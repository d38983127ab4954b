import { createTranslator } from "next-intl";
import type { NextRequest } from "next/server";
import ar from "./i18n/messages/ar.json";
import en from "./i18n/messages/en.json";
import { direction, LOCALE_COOKIE, resolveLocale, type Locale } from "./i18n/config";

/**
 * The largest form the shop reads. Next.js refuses a server action body over 1 MB (`serverActions.bodySizeLimit`)
 * with a bare "Internal Server Error", before any of the shop's code runs, so the proxy refuses anything over this
 * first, with a page that says what happened. Every form of the shop is far smaller: the checkout with a 100-character
 * name and the form state React sends along is about 1 KB; the largest (the admin's note) is under 4 KB.
 */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * The payment list's form (app/admin/reconcile): a file of up to 512 KB (lib/admin/payment-list.ts,
 * `MAX_LIST_BYTES`; the page itself refuses a larger one with a message) and the form around it.
 */
export const MAX_LIST_FORM_BYTES = 576 * 1024;
/**
 * The catalogue CSV's form (app/admin/products/import): a file of up to 4 MB (lib/catalog/csv.ts,
 * `MAX_CATALOG_CSV_BYTES`: 10,000 products; the page itself refuses a larger one with a message) and the form around
 * it.
 */
export const MAX_CATALOG_FORM_BYTES = 4 * 1024 * 1024 + MAX_FORM_BYTES;
/**
 * The files of one bulk picture upload together (app/admin/products/pictures; lib/catalog/pictures.ts,
 * `addPicturesBySlug`, reads at most 20 files, each up to 5 MB): twenty pictures of 1 MB, or four phone photos at the
 * largest one upload takes.
 */
export const MAX_BULK_PICTURES_BYTES = 20 * 1024 * 1024;
/**
 * The bulk picture upload's form: its files and the form around them. The largest form the shop reads: Next.js's own
 * limit for server actions is this (next.config.mjs, `serverActions.bodySizeLimit`), and so is a reverse proxy's in
 * front of the shop (docs/deploy/nginx.conf, `client_max_body_size`). Every other page keeps its own smaller limit here.
 */
export const MAX_BULK_PICTURES_FORM_BYTES = MAX_BULK_PICTURES_BYTES + MAX_FORM_BYTES;
/** The pages whose forms carry a file, their limit, and the sentence of the refusal page that names what they read. */
const FILE_FORMS: Record<string, { limit: number; text: "textList" | "textCatalog" | "textPictures" }> = {
  "/admin/reconcile": { limit: MAX_LIST_FORM_BYTES, text: "textList" },
  "/admin/products/import": { limit: MAX_CATALOG_FORM_BYTES, text: "textCatalog" },
  "/admin/products/pictures": { limit: MAX_BULK_PICTURES_FORM_BYTES, text: "textPictures" },
};

/**
 * The largest: a product's page in the back office (app/admin/products/[id]), where the merchant uploads a picture of
 * up to 5 MB (lib/catalog/pictures.ts, `MAX_PICTURE_BYTES`, which refuses a larger one with its own message) in a
 * form around it; a larger upload gets this proxy's page about pictures.
 */
export const MAX_PICTURE_FORM_BYTES = 5 * 1024 * 1024 + MAX_FORM_BYTES;
const PICTURE_FORM_PATH = /^\/admin\/products\/[1-9]\d{0,14}$/;

/** The largest form a page reads: a product picture's, a file's, or every other form's. */
function formLimit(pathname: string): number {
  if (PICTURE_FORM_PATH.test(pathname)) return MAX_PICTURE_FORM_BYTES;
  return Object.hasOwn(FILE_FORMS, pathname) ? FILE_FORMS[pathname]!.limit : MAX_FORM_BYTES;
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

const messagesOf = (locale: Locale) => (locale === "ar" ? ar : en);

/**
 * A short page in the visitor's language (the language cookie, else the browser's), with a way back to the page the
 * form was on, as a plain GET.
 * @param texts its title, sentence and link text in the visitor's language.
 * @param backTo the path of the form's page: the request's own unless given.
 */
function refusalPage(
  request: NextRequest,
  nonce: string,
  status: number,
  texts: (locale: Locale) => { title: string; text: string; back: string },
  backTo = request.nextUrl.pathname,
): Response {
  const locale = resolveLocale(request.cookies.get(LOCALE_COOKIE)?.value, request.headers.get("accept-language"));
  const { title, text, back } = texts(locale);
  const html = `<!doctype html>
<html lang="${locale}" dir="${direction(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1c1917}a{color:#166534}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="${escapeHtml(backTo)}">${escapeHtml(back)}</a></p></main></body>
</html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The answer to a form post too large to read (413, a short page in the shopper's language with a way back), or
 * `null` to let the request through. Decided by `Content-Length`, which browsers always send with a form; a body
 * without one is left to Next.js's own limit.
 * @param nonce the response's CSP nonce, for the page's one `<style>`.
 */
export function refuseOversizedForm(request: NextRequest, nonce: string): Response | null {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (!isFormPost(request) || !(length > formLimit(request.nextUrl.pathname))) return null;
  return tooLargePage(request, nonce, request.nextUrl.pathname);
}

/**
 * The same page for a form that a reverse proxy in front of the shop refused as larger than it takes, before the shop
 * saw it: nginx's `error_page 413` (docs/deploy/nginx.conf) asks for it by GET, without the body. The form's page is
 * the one the browser sent it from (the `Referer`'s path, never another host), else the home page; the page's
 * sentence is that form's, as if the shop had refused it itself.
 * @param nonce the response's CSP nonce (the `x-nonce` request header proxy.ts sets).
 */
export function formRefusedByProxy(request: NextRequest, nonce: string): Response {
  const referer = request.headers.get("referer");
  return tooLargePage(request, nonce, referer && URL.canParse(referer) ? new URL(referer).pathname : "/");
}

/** The 413 page for a form posted to `pathname`, naming what that page reads. */
function tooLargePage(request: NextRequest, nonce: string, pathname: string): Response {
  const limit = formLimit(pathname);
  return refusalPage(
    request,
    nonce,
    413,
    (locale) => {
      const t = createTranslator({ locale, messages: messagesOf(locale), namespace: "formTooLarge" });
      return {
        title: t("title"),
        text: t(
          limit === MAX_PICTURE_FORM_BYTES
            ? "textPicture"
            : Object.hasOwn(FILE_FORMS, pathname)
              ? FILE_FORMS[pathname]!.text
              : "text",
          { size: limit / 1024 },
        ),
        back: t("back"),
      };
    },
    pathname,
  );
}

/**
 * The answer to a form post or action call sent from another site (403, a short page that says nothing was done), or
 * `null` to let the request through. Next.js refuses a server action whose `Origin` is neither the host it was sent
 * to (`X-Forwarded-Host`, else `Host`) nor an allowed origin (next.config.mjs allows SITE_URL's), which stops
 * cross-site request forgery, but it answers with a bare 500, and it compares hosts only: a page served over plain
 * `http://` on the shop's own name (by whoever sits on the customer's network) would pass. This refuses such posts
 * first, with a page, comparing scheme, host and port: the origin must be SITE_URL's, or the one the request was sent
 * to (its scheme from `X-Forwarded-Proto`, else the server's own) when that is another host than SITE_URL's (a
 * preview deployment, a development server). A post without `Origin` (not from a browser, so carrying no one's
 * cookies) is left to Next.js, which lets it through as well.
 * @param siteUrl the shop's public origin (SITE_URL), when the environment could be read.
 */
export function refuseCrossSiteForm(request: NextRequest, nonce: string, siteUrl: string | undefined): Response | null {
  const origin = request.headers.get("origin");
  if (!isFormPost(request) || origin === null) return null;
  if (ownOrigins(request, siteUrl).includes(originOf(origin) ?? "")) return null;
  return refusalPage(request, nonce, 403, (locale) => {
    const t = createTranslator({ locale, messages: messagesOf(locale), namespace: "formFromElsewhere" });
    return { title: t("title"), text: t("text"), back: t("back") };
  });
}

/** A URL's origin (`https://shop.example.ly`, lower-case, default port dropped), or `undefined` for no URL. */
const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : undefined);

/** The origins the shop's own pages are served from: SITE_URL's, and the request's own on any other host. */
function ownOrigins(request: NextRequest, siteUrl: string | undefined): string[] {
  const site = siteUrl ? originOf(siteUrl) : undefined;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  const scheme =
    request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || request.nextUrl.protocol.slice(0, -1);
  const own = host ? originOf(`${scheme}://${host}`) : undefined;
  const sameHost = site && own && new URL(site).host === new URL(own).host;
  return [site, sameHost ? undefined : own].filter((value) => value !== undefined);
}

/** Whether a text holds U+0000, which PostgreSQL refuses in any text value. */
const hasNul = (text: string) => text.includes("\u0000");

/**
 * The answer to a request that carries a NUL character (U+0000) in its address (`%00` in the path or query) or in a
 * form's field, name or file name (400, a short page that says nothing was done), or `null` to let it through. No text
 * the shop stores may hold one (PostgreSQL refuses it: the page would answer a bare 500), and no person types one, so
 * it is refused here, once, for every page, form and action. A form's body is read from the copy Next.js gives the
 * proxy; the page still reads its own.
 */
export async function refuseNulCharacters(request: NextRequest, nonce: string): Promise<Response | null> {
  const url = request.nextUrl;
  let found = /%00/.test(url.pathname + url.search);
  const type = request.headers.get("content-type") ?? "";
  if (!found && isFormPost(request) && /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    // A body that is not a form after all is left to the page, which refuses it its own way.
    const form = await request.formData().catch(() => null);
    found = [...(form ?? [])].some(
      ([name, value]) => hasNul(name) || hasNul(typeof value === "string" ? value : value.name),
    );
  }
  if (!found) return null;
  return refusalPage(request, nonce, 400, (locale) => {
    const t = createTranslator({ locale, messages: messagesOf(locale), namespace: "nulCharacter" });
    return { title: t("title"), text: t("text"), back: t("back") };
  });
}
