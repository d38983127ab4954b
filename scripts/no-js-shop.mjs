// The shop driven the way a browser WITHOUT JavaScript drives it: plain HTML form posts, cookies by hand.
//
// Next.js renders every server-action form for progressive enhancement: `method="POST"`, multipart, and hidden
// `$ACTION_REF_…`, `$ACTION_…:n` and `$ACTION_KEY` inputs naming the action and its bound state. Posting those back
// with the visible fields runs the action exactly as a no-JS browser would: the add-to-cart action answers 200 with
// the page and a new session cookie; the checkout action's `redirect()` answers 303 to the payment page.
//
// Used by scripts/bench.mjs and, through scripts/page-weight.mjs, by e2e/page-weight.spec.ts. Forms are found by
// their field names, never by their (translated) texts.

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes the HTML character references React writes into attribute values (`&quot;`, `&amp;`, `&#x27;` …). */
export function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** The attributes of one start tag, names lower-cased, values decoded; a bare attribute (`async`) gives "". */
export function parseAttributes(tag) {
  const attributes = {};
  const body = tag.replace(/^<[a-z0-9-]+/i, "").replace(/\/?>$/, "");
  for (const match of body.matchAll(/([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attributes[match[1].toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/** Every start tag `<name …>` in `html`, as attribute objects, in document order. */
export function startTags(html, name) {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, "gi"))].map((match) => parseAttributes(match[0]));
}

/**
 * The first `<form>` of `html` that has a control named `fieldName`.
 * @returns `{ attributes, hidden: [name, value][], radios: { [name]: value[] } }`, or `null`.
 */
export function findForm(html, fieldName) {
  for (const match of html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/gi)) {
    const form = match[0];
    const controls = startTags(form, "input").concat(startTags(form, "select"), startTags(form, "textarea"));
    if (!controls.some((control) => control.name === fieldName)) continue;
    const hidden = [];
    const radios = {};
    for (const input of startTags(form, "input")) {
      if (!input.name) continue;
      if (input.type === "hidden") hidden.push([input.name, input.value ?? ""]);
      if (input.type === "radio") (radios[input.name] ??= []).push(input.value ?? "");
    }
    return { attributes: parseAttributes(form.match(/^<form\b[^>]*>/i)[0]), hidden, radios };
  }
  return null;
}

/** The `shop_session=…` pair of a response's Set-Cookie, or `fallback` when it sets none. */
export function sessionCookie(response, fallback = "") {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0];
    if (pair.startsWith("shop_session=")) return pair;
  }
  return fallback;
}

/** Headers of a no-JS browser's request; a form post also carries its page's Origin (Next.js checks it). */
function browserHeaders(cookie, extra = {}) {
  const headers = { Accept: "text/html,application/xhtml+xml", "Accept-Language": "en-US,en;q=0.9", ...extra };
  if (cookie) headers.Cookie = cookie;
  return headers;
}

/** GETs a shop page as HTML; throws unless it answers `expectedStatus`. */
export async function getPage(url, cookie, expectedStatus = 200) {
  const response = await fetch(url, { headers: browserHeaders(cookie), redirect: "manual" });
  const html = await response.text();
  if (response.status !== expectedStatus) throw new Error(`GET ${url} answered ${response.status}, expected ${expectedStatus}`);
  return html;
}

/** Builds a multipart/form-data body by hand (for autocannon, which sends raw bytes). */
export function multipartBody(fields) {
  const boundary = `----bench${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  let body = "";
  for (const [name, value] of fields) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, "%22")}"\r\n\r\n${value}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

function formData(fields) {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
}

/**
 * Adds a product to the cart by posting the product page's add-to-cart form.
 * @returns the session cookie holding the cart (a new session unless `cookie` is given).
 */
export async function addToCart(baseUrl, { slug = "olive-oil", quantity = 1, cookie = "" } = {}) {
  const pageUrl = new URL(`/products/${encodeURIComponent(slug)}`, baseUrl).href;
  const form = findForm(await getPage(pageUrl, cookie), "quantity");
  if (!form) throw new Error(`${pageUrl} has no add-to-cart form (no field named "quantity")`);
  const fields = [...form.hidden, ["quantity", String(quantity)]];
  const response = await fetch(pageUrl, {
    method: "POST",
    body: formData(fields),
    headers: browserHeaders(cookie, { Origin: new URL(baseUrl).origin }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const next = sessionCookie(response);
  if (response.status !== 200 || !next) {
    throw new Error(`add to cart (${slug}) answered ${response.status}${next ? "" : " without a session cookie"}`);
  }
  return next;
}

/**
 * Loads the checkout page with a cart's cookie and reads its form.
 * @returns `{ hidden, gateways }`: the form's hidden inputs (the `$ACTION_…` fields) and the gateway aliases offered.
 */
export async function loadCheckoutForm(baseUrl, cookie) {
  const form = findForm(await getPage(new URL("/checkout", baseUrl).href, cookie), "full_name");
  if (!form) throw new Error("the checkout page has no checkout form (no field named full_name): is the cart empty?");
  return { hidden: form.hidden, gateways: (form.radios.payment_gateway ?? []).filter(Boolean) };
}

/** The fields of one checkout submission: the form's hidden inputs plus the customer's details. */
export function checkoutFields(hidden, { full_name = "", email = "", phone = "", payment_gateway = "" } = {}) {
  return [...hidden, ["full_name", full_name], ["email", email], ["phone", phone], ["payment_gateway", payment_gateway]];
}

/**
 * Submits the checkout form as a no-JS browser does, following no redirect.
 * @returns `{ status, location, cookie }`; a successful checkout is 303 with `location` on the payment page.
 */
export async function submitCheckout(baseUrl, cookie, hidden, details) {
  const response = await fetch(new URL("/checkout", baseUrl), {
    method: "POST",
    body: formData(checkoutFields(hidden, details)),
    headers: browserHeaders(cookie, { Origin: new URL(baseUrl).origin }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location"), cookie: sessionCookie(response, cookie) };
}

/** Whether `location` is a payment page of the payment service at `serviceOrigin` (sandbox or production). */
export function isPaymentPage(location, serviceOrigin) {
  if (!location || !URL.canParse(location)) return false;
  const url = new URL(location);
  return url.origin === serviceOrigin && /^\/pay(\/sandbox)?\/v1\/user\/payment\/preview\/[^/]+$/.test(url.pathname);
}

/**
 * Presses **Pay** on the emulator's gateway page (emulator/README.md, "Hosted pages").
 * @returns the shop's return URL the emulator redirects to (`…/checkout/return?type=success&token=…`).
 */
export async function payAtEmulator(paymentUrl, gateway) {
  const url = new URL(paymentUrl);
  url.pathname = `${url.pathname}/gateway/${encodeURIComponent(gateway)}/complete`;
  const response = await fetch(url, { method: "POST", body: new URLSearchParams({ outcome: "pay" }), redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 303 || !location) throw new Error(`Pay on the emulator answered ${response.status}`);
  return location;
}

/**
 * Follows the payment page's redirect back to the shop with the session cookie.
 * @returns `{ orderPath, cookie }`: the order page (`/orders/<id>?outcome=…`) and the settled session's cookie.
 */
export async function returnToShop(returnUrl, cookie) {
  const response = await fetch(returnUrl, { headers: browserHeaders(cookie), redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status !== 303 || !location?.startsWith("/orders/")) {
    throw new Error(`the return URL answered ${response.status} ${location ?? ""}, expected 303 to /orders/<id>`);
  }
  return { orderPath: location, cookie: sessionCookie(response, cookie) };
}

/**
 * One whole order, no JavaScript: cart → checkout with every detail and a gateway → Pay → back to the shop.
 * @returns `{ orderPath, cookie, paymentUrl }` of the paid order.
 */
export async function placePaidOrder(baseUrl, serviceOrigin, { slug = "olive-oil", quantity = 1 } = {}) {
  const cartCookie = await addToCart(baseUrl, { slug, quantity });
  const { hidden, gateways } = await loadCheckoutForm(baseUrl, cartCookie);
  const gateway = gateways[0];
  if (!gateway) throw new Error("the checkout form offers no payment gateway");
  const details = { full_name: "Page Weight", email: "weight@example.ly", phone: "0912345678", payment_gateway: gateway };
  const checkout = await submitCheckout(baseUrl, cartCookie, hidden, details);
  if (checkout.status !== 303 || !isPaymentPage(checkout.location, serviceOrigin)) {
    throw new Error(`checkout answered ${checkout.status} ${checkout.location ?? ""}, expected 303 to a payment page at ${serviceOrigin}`);
  }
  const returnUrl = await payAtEmulator(checkout.location, gateway);
  const { orderPath, cookie } = await returnToShop(returnUrl, checkout.cookie);
  return { orderPath, cookie, paymentUrl: checkout.location };
}
