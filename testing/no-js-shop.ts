// The shop driven the way a browser WITHOUT JavaScript drives it: plain HTML form posts, cookies by hand.
//
// Next.js renders every server-action form for progressive enhancement: `method="POST"`, multipart, and hidden
// `$ACTION_REF_…`, `$ACTION_…:n` and `$ACTION_KEY` inputs naming the action and its bound state. Posting those back
// with the visible fields runs the action exactly as a no-JS browser would: the add-to-cart action answers 200 with
// the page and a new session cookie; the checkout action's `redirect()` answers 303 to the payment page.
//
// Used by the benchmarks (bench/), the page-weight budget (testing/page-weight.ts) and the browser tests for what
// needs no browser: customers who only buy, pages whose text is all a test reads, the back office's plain forms with
// the admin's cookie, forged posts. Forms are found by their field names, or by a button's text when the test names
// the button the merchant presses.
import { request as httpRequest } from "node:http";
import { isIP } from "node:net";
import { selectAll } from "css-select";
import { hasChildren, isText, type AnyNode, type Element } from "domhandler";
import { parseDocument } from "htmlparser2";

/** A form's hidden inputs (the `$ACTION_…` fields) and, per radio group and per select, the values offered. */
export interface FoundForm {
  hidden: [string, string][];
  radios: Record<string, string[]>;
  selects: Record<string, string[]>;
}

/** The first `<form>` of `html` that has a control named `fieldName`, or `null`. */
export function findForm(html: string, fieldName: string): FoundForm | null {
  const form = select("form", parseDocument(html)).find(
    (candidate) => select(`[name="${fieldName}"]`, candidate).length > 0,
  );
  if (!form) return null;
  const hidden: [string, string][] = [];
  const radios: Record<string, string[]> = {};
  for (const { attribs } of select("input[name]", form)) {
    const { name = "", value = "", type } = attribs;
    if (type === "hidden") hidden.push([name, value]);
    if (type === "radio") (radios[name] ??= []).push(value);
  }
  const selects: Record<string, string[]> = {};
  for (const list of select("select[name]", form)) {
    selects[list.attribs.name!] = select("option", list)
      .map((option) => option.attribs.value ?? "")
      .filter(Boolean);
  }
  return { hidden, radios, selects };
}

/** Parsed HTML, for callers that read more than a form (testing/page-weight.ts), to query with {@link select}. */
export const parseHtml = (html: string): AnyNode => parseDocument(html);

/** The elements under `root` that match a CSS `selector`, in document order. */
export const select = (selector: string, root: AnyNode): Element[] => selectAll<AnyNode, Element>(selector, root);

/** The text a reader sees in an element: its text nodes, as written. */
export const nodeText = (node: AnyNode): string =>
  isText(node) ? node.data : hasChildren(node) ? node.children.map(nodeText).join("") : "";

/** The text of every element of `html` matching `selector`, in document order. */
export const textsOf = (html: string, selector: string): string[] =>
  select(selector, parseDocument(html)).map(nodeText);

/** The text of the first element of `html` matching `selector`, or `null` when there is none. */
export const textOf = (html: string, selector: string): string | null => textsOf(html, selector)[0] ?? null;

/**
 * The `href` of the first link of `html` (or under an element of it) whose name — its aria-label, else its text — is
 * `name`, as a reader finds a link by what it says. @throws when there is none.
 */
export function hrefOf(html: string | AnyNode, name: string): string {
  const root = typeof html === "string" ? parseDocument(html) : html;
  const link = select("a[href]", root).find(
    (a) => (a.attribs["aria-label"] ?? nodeText(a)).replace(/\s+/g, " ").trim() === name,
  );
  if (!link) throw new Error(`no link named "${name}"`);
  return link.attribs.href!;
}

/**
 * Which form of a page: the one with a control named so; the one whose submit button says `button`; the one with an
 * input `name` whose value is `value` (e.g. `step` = `packed`, the button "Mark as packed").
 */
export type WhichForm = string | { button: string } | { name: string; value: string };

/**
 * What a browser without JavaScript sends when it submits the first form of `html` that is `which`, as the page shows
 * it after `changes` (a text typed into a field, `true` or `false` to tick or untick a box, a radio's value to choose
 * it): the form's hidden inputs (the `$ACTION_…` fields), its fields' values, the boxes and radios ticked, each
 * select's chosen option. @throws when the page has no such form.
 */
export function formAsShown(
  html: string,
  which: WhichForm,
  changes: Record<string, string | boolean> = {},
): [string, string][] {
  const form = select("form", parseDocument(html)).find((candidate) =>
    typeof which === "string"
      ? select(`[name="${which}"]`, candidate).length > 0
      : "button" in which
        ? select("button", candidate).some((button) => nodeText(button).trim() === which.button)
        : select(`input[name="${which.name}"]`, candidate).some((input) => input.attribs.value === which.value),
  );
  if (!form) throw new Error(`the page has no form ${JSON.stringify(which)}`);
  const fields: [string, string][] = [];
  for (const control of select("input[name], textarea[name], select[name]", form)) {
    const { name = "", type = "text", value } = control.attribs;
    const change = changes[name];
    const typed = typeof change === "string" ? change : undefined;
    if (control.name === "select") {
      const options = select("option", control);
      const chosen = options.find((option) => "selected" in option.attribs) ?? options[0];
      fields.push([name, typed ?? chosen?.attribs.value ?? ""]);
    } else if (control.name === "textarea") fields.push([name, typed ?? nodeText(control)]);
    else if (type === "checkbox" || type === "radio") {
      const ticked =
        typeof change === "boolean" ? change : typed !== undefined ? typed === value : "checked" in control.attribs;
      if (ticked) fields.push([name, value ?? "on"]);
    } else if (type === "hidden") fields.push([name, value ?? ""]);
    else if (!["submit", "button", "reset", "file", "image"].includes(type)) fields.push([name, typed ?? value ?? ""]);
  }
  return fields;
}

/** The `value` of the first control of `html` named `name` (what a re-rendered form kept), or `null`. */
export function valueOf(html: string, name: string): string | null {
  const [control] = select(`[name="${name}"]`, parseDocument(html));
  return control?.attribs.value ?? null;
}

/** The `shop_session=…` pair of a response's Set-Cookie, or `fallback` when it sets none. */
export function sessionCookie(response: Response, fallback = ""): string {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0]!;
    if (pair.startsWith("shop_session=")) return pair;
  }
  return fallback;
}

/** The shop's two languages: a browser asks for one in its Accept-Language, as a Libyan shopper's asks for ar-LY. */
type Lang = "en" | "ar";
const ACCEPT_LANGUAGE: Record<Lang, string> = { en: "en-US,en;q=0.9", ar: "ar-LY,ar;q=0.9" };

/**
 * Headers of a no-JS browser's request in `lang`; a form post also carries its page's Origin (Next.js checks it).
 */
function browserHeaders(cookie: string, extra: Record<string, string> = {}, lang: Lang = "en"): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: "text/html,application/xhtml+xml",
    "Accept-Language": ACCEPT_LANGUAGE[lang],
    ...extra,
  };
  if (cookie) headers.Cookie = cookie;
  return headers;
}

/** GETs a shop page as HTML, asking for `lang`; throws unless it answers `expectedStatus`. */
export async function getPage(url: string, cookie = "", expectedStatus = 200, lang: Lang = "en"): Promise<string> {
  const response = await fetch(url, { headers: browserHeaders(cookie, {}, lang), redirect: "manual" });
  const html = await response.text();
  if (response.status !== expectedStatus)
    throw new Error(`GET ${url} answered ${response.status}, expected ${expectedStatus}`);
  return html;
}

/** A form's fields as a browser posts them: a text, or a file chosen. */
type Field = [string, string | File];

const formData = (fields: Field[]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};

/**
 * A multipart/form-data body as raw bytes, with its Content-Type (for autocannon, which sends bytes as they are).
 * Encoded by the platform's own FormData serialisation.
 */
export async function multipartBody(fields: [string, string][]): Promise<{ body: string; contentType: string }> {
  const encoded = new Response(formData(fields));
  return { body: await encoded.text(), contentType: encoded.headers.get("content-type")! };
}

/**
 * Posts a form back to the page at `pageUrl` as a no-JS browser in `lang` (default en) does: `fields` are all it
 * sends (a file as a `File`), the page's hidden inputs (see {@link findForm}) included. Follows no redirect.
 * @returns the status, where it redirects (`null` when it does not), the HTML answered and the session cookie it set
 *   (empty when it set none).
 */
export async function postForm(
  pageUrl: string,
  fields: Field[],
  cookie = "",
  lang: Lang = "en",
): Promise<{ status: number; location: string | null; html: string; cookie: string }> {
  const response = await fetch(pageUrl, {
    method: "POST",
    body: formData(fields),
    headers: browserHeaders(cookie, { Origin: new URL(pageUrl).origin }, lang),
    redirect: "manual",
  });
  return {
    status: response.status,
    location: response.headers.get("location"),
    html: await response.text(),
    cookie: sessionCookie(response),
  };
}

/**
 * Signs in on the back office's /admin/sign-in as a browser without JavaScript does.
 * @param options.forwardedFor an X-Forwarded-For to send, for a client at an address of its own (the tests' shops
 *   trust one proxy).
 * @returns the admin's session cookie (`admin_session=…`).
 * @throws unless the sign-in answered 303 with a session.
 */
export async function adminCookie(
  baseUrl: string,
  email: string,
  password: string,
  { forwardedFor }: { forwardedFor?: string } = {},
): Promise<string> {
  const answer = await adminSignIn(baseUrl, email, password, forwardedFor);
  const cookie = answer.headers.getSetCookie().find((header) => header.startsWith("admin_session="));
  if (answer.status !== 303 || !cookie) throw new Error(`the sign-in answered ${answer.status} without a session`);
  return cookie.split(";")[0]!;
}

/** Posts the sign-in form of /admin/sign-in, following no redirect. @returns the server's answer, read. */
export async function adminSignIn(
  baseUrl: string,
  email: string,
  password: string,
  forwardedFor?: string,
): Promise<Response> {
  const pageUrl = new URL("/admin/sign-in", baseUrl).href;
  const form = findForm(await getPage(pageUrl), "password");
  if (!form) throw new Error(`${pageUrl} has no sign-in form`);
  const answer = await fetch(pageUrl, {
    method: "POST",
    body: formData([...form.hidden, ["email", email], ["password", password]]),
    headers: browserHeaders("", {
      Origin: new URL(pageUrl).origin,
      ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}),
    }),
    redirect: "manual",
  });
  await answer.arrayBuffer();
  return answer;
}

/**
 * The hidden inputs of the form of an admin page whose `name` input has `value` (e.g. `step` = `packed`, the button
 * "Mark as packed"): what a browser without JavaScript posts when that form's button is pressed.
 * @throws when the page has no such form.
 */
export function adminForm(html: string, name: string, value: string): [string, string][] {
  const form = select("form", parseDocument(html)).find((each) =>
    select(`input[name="${name}"]`, each).some((input) => input.attribs.value === value),
  );
  if (!form) throw new Error(`the page has no form with ${name}=${value}`);
  return select("input[type=hidden]", form).map((input) => [input.attribs.name!, input.attribs.value ?? ""]);
}

/**
 * Adds a product to the cart by posting the product page's add-to-cart form, as a browser in `lang` (default en).
 * @returns the session cookie holding the cart (a new session unless `cookie` is given).
 */
export async function addToCart(
  baseUrl: string,
  { slug = "olive-oil", quantity = 1, cookie = "", lang = "en" as Lang } = {},
): Promise<string> {
  const pageUrl = new URL(`/products/${encodeURIComponent(slug)}`, baseUrl).href;
  const form = findForm(await getPage(pageUrl, cookie, 200, lang), "quantity");
  if (!form) throw new Error(`${pageUrl} has no add-to-cart form (no field named "quantity")`);
  const answer = await postForm(pageUrl, [...form.hidden, ["quantity", String(quantity)]], cookie, lang);
  if (answer.status !== 200 || !answer.cookie)
    throw new Error(
      `add to cart (${slug}) answered ${answer.status}${answer.cookie ? "" : " without a session cookie"}`,
    );
  return answer.cookie;
}

/**
 * Loads the checkout page with a cart's cookie, as a browser in `lang` (default en), and reads its form.
 * @returns the form's hidden inputs (the `$ACTION_…` fields, and `shown_prices`: the prices the page showed, which the
 *   checkout holds the submission to — load the form again after changing a price), the gateway aliases offered, the
 *   ways to pay it asks between (`payment_method`: none unless the merchant takes cash for this cart), and
 *   `delivery`: what a cart
 *   of goods needs to check out (the phone, delivery to the first city offered — Tripoli — at a test address), or
 *   nothing when the form asks no delivery (digital products only). Spread it under the test's own details.
 */
export async function loadCheckoutForm(
  baseUrl: string,
  cookie: string,
  lang: Lang = "en",
): Promise<{ hidden: [string, string][]; gateways: string[]; paymentMethods: string[]; delivery: CheckoutDetails }> {
  const form = findForm(await getPage(new URL("/checkout", baseUrl).href, cookie, 200, lang), "full_name");
  if (!form) throw new Error("the checkout page has no checkout form (no field named full_name): is the cart empty?");
  const zone = form.selects.delivery_zone?.[0];
  return {
    hidden: form.hidden,
    gateways: (form.radios.payment_gateway ?? []).filter(Boolean),
    paymentMethods: form.radios.payment_method ?? [],
    delivery: zone
      ? {
          phone: "0912345678",
          delivery_method: "delivery",
          delivery_zone: zone,
          delivery_address: "Gargaresh Street, building 12",
        }
      : {},
  };
}

/** The checkout form's fields (lib/checkout/form.ts, CHECKOUT_FIELDS). */
const FIELDS = [
  "full_name",
  "email",
  "phone",
  "sms_updates",
  "payment_gateway",
  "delivery_method",
  "delivery_zone",
  "delivery_address",
  "delivery_landmark",
  "second_phone",
  "payment_method",
  "promo_code",
] as const;

/** What a checkout submission gives, as the checkout form names its fields (the spec's field names); blanks allowed. */
export type CheckoutDetails = Partial<Record<(typeof FIELDS)[number], string>>;

/** The fields of one checkout submission: the form's hidden inputs plus the customer's details and delivery. */
export function checkoutFields(hidden: [string, string][], details: CheckoutDetails = {}): [string, string][] {
  return [...hidden, ...FIELDS.map((field): [string, string] => [field, details[field] ?? ""])];
}

/**
 * Submits the checkout form as a no-JS browser does, following no redirect.
 * @param options.from the source address to send from, for a client at an address of its own: any 127.0.0.x on Linux,
 *   whose loopback answers them all (the shop counts the TCP peer's address unless it trusts a proxy).
 * @param options.headers extra request headers (an `X-Forwarded-For` a client wrote, say).
 * @param options.lang the language the browser asks for (default en): the order's and the payment page's language.
 * @param options.apply press the promo code's "Apply" button rather than the checkout's own: the form comes back.
 * @returns the status, the Location (a successful checkout is 303 to the payment page), the session cookie, and the
 *   page's HTML when the checkout answered with the form again (a message).
 */
export async function submitCheckout(
  baseUrl: string,
  cookie: string,
  hidden: [string, string][],
  details: CheckoutDetails,
  {
    from,
    headers = {},
    lang = "en",
    apply = false,
  }: { from?: string; headers?: Record<string, string>; lang?: Lang; apply?: boolean } = {},
): Promise<{ status: number; location: string | null; cookie: string; html: string }> {
  const url = new URL("/checkout", baseUrl);
  const requestHeaders = browserHeaders(cookie, { Origin: url.origin, ...headers }, lang);
  // The button pressed is posted with the form, as a browser does: the "Apply" button's name and value.
  const fields: [string, string][] = [
    ...checkoutFields(hidden, details),
    ...(apply ? [["intent", "apply"] as [string, string]] : []),
  ];
  const response = from
    ? await postFrom(from, url, requestHeaders, fields)
    : await fetch(url, {
        method: "POST",
        body: formData(fields),
        headers: requestHeaders,
        redirect: "manual",
      });
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookie: sessionCookie(response, cookie),
    html: await response.text(),
  };
}

/** A multipart form post from the source address `localAddress`, which fetch cannot choose (node:http can). */
async function postFrom(
  localAddress: string,
  url: URL,
  headers: Record<string, string>,
  fields: [string, string][],
): Promise<Response> {
  const { body, contentType } = await multipartBody(fields);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      // `family`: resolve `localhost` to an address of the source's own family.
      {
        method: "POST",
        localAddress,
        family: isIP(localAddress),
        headers: { ...headers, "Content-Type": contentType },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(answer.headers))
            for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
          resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode, headers: answerHeaders }));
        });
        answer.once("error", reject);
      },
    );
    sent.once("error", reject);
    sent.end(body);
  });
}

/**
 * GETs a shop page as a browser in `lang` (default en) does: follows the shop's redirects, keeping the session cookie
 * each answer sets.
 * @returns where it ended, that page's status and HTML, and the session cookie after it.
 */
export async function browse(
  url: string,
  cookie = "",
  lang: Lang = "en",
): Promise<{ url: string; status: number; html: string; cookie: string }> {
  for (let hops = 0; hops < 5; hops++) {
    const response = await fetch(url, { headers: browserHeaders(cookie, {}, lang), redirect: "manual" });
    cookie = sessionCookie(response, cookie);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      return { url, status: response.status, html: await response.text(), cookie };
    }
    await response.arrayBuffer();
    url = new URL(location, url).href;
  }
  throw new Error(`${url}: more than 5 redirects`);
}

/** Whether `location` is a payment page of the payment service at `serviceOrigin` (sandbox or production). */
export function isPaymentPage(location: string | null | undefined, serviceOrigin: string): location is string {
  if (!location || !URL.canParse(location)) return false;
  const url = new URL(location);
  return url.origin === serviceOrigin && /^\/pay(\/sandbox)?\/v1\/user\/payment\/preview\/[^/]+$/.test(url.pathname);
}

/**
 * Presses **Pay** on the emulator's gateway page (emulator/README.md, "Hosted pages").
 * @returns the shop's return URL the emulator redirects to (`…/checkout/return?type=success&token=…`).
 */
export async function payAtEmulator(paymentUrl: string, gateway: string): Promise<string> {
  const url = new URL(paymentUrl);
  url.pathname = `${url.pathname}/gateway/${encodeURIComponent(gateway)}/complete`;
  const response = await fetch(url, {
    method: "POST",
    body: new URLSearchParams({ outcome: "pay" }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 303 || !location) throw new Error(`Pay on the emulator answered ${response.status}`);
  return location;
}

/**
 * Follows the payment page's redirect back to the shop with the session cookie.
 * @returns the order page (`/orders/<id>?outcome=…`) and the settled session's cookie.
 */
export async function returnToShop(
  returnUrl: string,
  cookie: string,
  lang: Lang = "en",
): Promise<{ orderPath: string; cookie: string }> {
  const response = await fetch(returnUrl, { headers: browserHeaders(cookie, {}, lang), redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 303 || !location?.startsWith("/orders/")) {
    throw new Error(`the return URL answered ${response.status} ${location ?? ""}, expected 303 to /orders/<id>`);
  }
  return { orderPath: location, cookie: sessionCookie(response, cookie) };
}

/**
 * A checkout up to the payment page, no JavaScript: cart → checkout → sent to the service's payment page.
 * @param options.details the customer's details over the form's defaults (delivery to the first city, a phone).
 * @param options.lang the language the browser asks for (default en).
 * @returns the session cookie, the payment URL and its payment token.
 * @throws when the checkout did not send the customer to a payment page at `serviceOrigin`.
 */
export async function startPayment(
  baseUrl: string,
  serviceOrigin: string,
  { slug = "olive-oil", quantity = 1, details = {} as CheckoutDetails, lang = "en" as Lang } = {},
): Promise<{ cookie: string; paymentUrl: string; token: string }> {
  const cartCookie = await addToCart(baseUrl, { slug, quantity, lang });
  const { hidden, delivery } = await loadCheckoutForm(baseUrl, cartCookie, lang);
  const checkout = await submitCheckout(baseUrl, cartCookie, hidden, { ...delivery, ...details }, { lang });
  if (checkout.status !== 303 || !isPaymentPage(checkout.location, serviceOrigin)) {
    throw new Error(
      `checkout answered ${checkout.status} ${checkout.location ?? ""}, expected 303 to a payment page at ${serviceOrigin}`,
    );
  }
  return { cookie: checkout.cookie, paymentUrl: checkout.location, token: checkout.location.split("/").pop()! };
}

/**
 * One whole order, no JavaScript: cart → checkout with every detail and a gateway → Pay → back to the shop.
 * @param options.payWith the gateway paid with on the payment page: the one chosen at checkout, else Sadad; a
 *   checkout without a gateway may be paid with any (the customer chose it on the payment page).
 * @param options.lang the language the browser asks for (default en).
 * @returns the paid order's page, its session cookie and its payment URL.
 */
export async function placePaidOrder(
  baseUrl: string,
  serviceOrigin: string,
  {
    slug = "olive-oil",
    quantity = 1,
    details = { full_name: "Page Weight", email: "weight@example.ly", payment_gateway: "sadad" } as CheckoutDetails,
    payWith = undefined as string | undefined,
    lang = "en" as Lang,
  } = {},
): Promise<{ orderPath: string; cookie: string; paymentUrl: string }> {
  const started = await startPayment(baseUrl, serviceOrigin, { slug, quantity, details, lang });
  const returnUrl = await payAtEmulator(started.paymentUrl, payWith ?? (details.payment_gateway || "sadad"));
  const { orderPath, cookie } = await returnToShop(returnUrl, started.cookie, lang);
  return { orderPath, cookie, paymentUrl: started.paymentUrl };
}

/**
 * A cash-on-delivery order, no JavaScript: cart → checkout with "Cash on delivery" chosen → the order's page. The
 * merchant must take cash for the cart (cash_on_delivery enabled, the first city's `cash_on_delivery`).
 * @param options.details the customer's details over the form's defaults (delivery to the first city, a phone).
 * @param options.lang the shop's language (the NEXT_LOCALE cookie), `en` by default.
 * @returns the order's page (`/orders/<id>`) and the session cookie (its cart emptied).
 * @throws when the checkout did not send the customer to their order.
 */
export async function placeCashOrder(
  baseUrl: string,
  { slug = "olive-oil", quantity = 1, details = {} as CheckoutDetails, lang = "en" } = {},
): Promise<{ orderPath: string; cookie: string }> {
  const locale = `NEXT_LOCALE=${lang}`;
  const cartCookie = `${locale}; ${await addToCart(baseUrl, { slug, quantity, cookie: locale })}`;
  const { hidden, delivery } = await loadCheckoutForm(baseUrl, cartCookie);
  const checkout = await submitCheckout(baseUrl, cartCookie, hidden, {
    ...delivery,
    payment_method: "cash",
    ...details,
  });
  if (checkout.status !== 303 || !checkout.location?.startsWith("/orders/"))
    throw new Error(`the cash checkout answered ${checkout.status} ${checkout.location ?? ""}, expected /orders/<id>`);
  return { orderPath: checkout.location, cookie: checkout.cookie };
}
