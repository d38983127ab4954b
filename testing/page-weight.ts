// Page weight: the gzipped JavaScript, CSS and HTML a modern browser downloads for a page of the shop.
//
// Next 16 no longer prints first-load JS sizes, so this fetches the page and every script
// and stylesheet it loads, and gzips each on its own at zlib level 9 (what a server compressing at its best level
// sends; Next's own `compress` uses the default level 6, a few per cent larger). Counted, each URL once:
//   JS  — `<script src>` except `<script noModule>` (modern browsers skip the polyfill), `<link rel="modulepreload">`
//         and `<link rel="preload" as="script">`;
//   CSS — `<link rel="stylesheet">` and `<link rel="preload" as="style">`, in the HTML or in the `Link` header;
//   HTML — the document itself (with its inline scripts: the RSC payload).
// Images and fonts are not counted.
//
// Shared by bench/run.ts (`npm run bench`) and e2e/page-weight.spec.ts (`npm test`), so both report the same
// numbers.
import { gzipSync } from "node:zlib";
import { addToCart, isPaymentPage, parseHtml, placePaidOrder, select } from "./no-js-shop";

/** One downloaded file: bytes as served, and after gzip at {@link GZIP_LEVEL}. */
export interface AssetWeight {
  url: string;
  bytes: number;
  gzip: number;
}
export interface AssetGroup {
  files: AssetWeight[];
  bytes: number;
  gzip: number;
}
/** What a modern browser downloads for one page. */
export interface PageWeight {
  url: string;
  status: number;
  html: { bytes: number; gzip: number };
  js: AssetGroup;
  css: AssetGroup;
  totalGzip: number;
}
/** A page the budget covers and how to reach it. */
export interface ShopPage {
  key: string;
  name: string;
  path: string;
  cookie: string;
  expectedStatus: number;
  /** False for the app shell baseline, which is measured but not held to the budget. */
  budgeted: boolean;
}

/** Budget of every shop page: gzipped JavaScript (150 KB). */
export const JS_BUDGET_BYTES = 150 * 1024;
/** zlib level used for every figure. */
export const GZIP_LEVEL = 9;

const gzipBytes = (buffer: Buffer) => gzipSync(buffer, { level: GZIP_LEVEL }).length;

type Attributes = Record<string, string | undefined>;

/** `rel` tokens of a `<link>` attribute object or `Link` header entry. */
const relTokens = (rel: string | undefined) => (rel ?? "").toLowerCase().split(/\s+/).filter(Boolean);

/** What kind of asset a `<link>` (or `Link` header entry) makes the browser download: "js", "css" or null. */
function linkKind(attributes: Attributes): "js" | "css" | null {
  const rel = relTokens(attributes.rel);
  const as = (attributes.as ?? "").toLowerCase();
  if (rel.includes("stylesheet") || (rel.includes("preload") && as === "style")) return "css";
  if (rel.includes("modulepreload") || (rel.includes("preload") && as === "script")) return "js";
  return null;
}

/** Entries of an HTTP `Link` header as attribute objects with `href`. */
function linkHeaderEntries(header: string | null): Attributes[] {
  if (!header) return [];
  return [...header.matchAll(/<([^>]*)>([^,]*)/g)].map(([, href, params]) => {
    const attributes: Attributes = { href };
    for (const [, name, quoted, bare] of params!.matchAll(/;\s*([a-z-]+)\s*=\s*(?:"([^"]*)"|([^;\s]*))/gi)) {
      attributes[name!.toLowerCase()] = quoted ?? bare;
    }
    return attributes;
  });
}

/**
 * The scripts and stylesheets a modern browser downloads for this HTML, deduplicated, as absolute URLs.
 * @returns `{ js: string[], css: string[] }` in document order.
 */
export function pageAssets(
  html: string,
  pageUrl: string,
  linkHeader: string | null = null,
): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  const add = (set: Set<string>, href: string | undefined) => {
    if (!href) return;
    const url = new URL(href, pageUrl);
    url.hash = "";
    set.add(url.href);
  };
  const document = parseHtml(html);
  for (const { attribs } of select("script[src]", document)) {
    if (!("nomodule" in attribs)) add(js, attribs.src);
  }
  const links: Attributes[] = select("link", document).map((link) => link.attribs);
  for (const attributes of links.concat(linkHeaderEntries(linkHeader))) {
    const kind = linkKind(attributes);
    if (kind) add(kind === "js" ? js : css, attributes.href);
  }
  return { js: [...js], css: [...css] };
}

async function weighAsset(url: string): Promise<AssetWeight> {
  const response = await fetch(url);
  const buffer = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return { url, bytes: buffer.length, gzip: gzipBytes(buffer) };
}

const group = (files: AssetWeight[]): AssetGroup => ({
  files,
  bytes: files.reduce((total, file) => total + file.bytes, 0),
  gzip: files.reduce((total, file) => total + file.gzip, 0),
});

/**
 * Weighs one page: fetches it (with `cookie`, e.g. a session with a cart), then every script and stylesheet it loads.
 */
export async function measurePageWeight(url: string, cookie = ""): Promise<PageWeight> {
  const headers: Record<string, string> = {
    Accept: "text/html,application/xhtml+xml",
    "Accept-Language": "en-US,en;q=0.9",
  };
  if (cookie) headers.Cookie = cookie;
  const response = await fetch(url, { headers, redirect: "manual" });
  const buffer = Buffer.from(await response.arrayBuffer());
  if (response.status >= 300 && response.status !== 404) throw new Error(`GET ${url} answered ${response.status}`);
  const html = buffer.toString("utf8");
  const assets = pageAssets(html, url, response.headers.get("link"));
  const [js, css] = await Promise.all([
    Promise.all(assets.js.map(weighAsset)),
    Promise.all(assets.css.map(weighAsset)),
  ]);
  const page = { bytes: buffer.length, gzip: gzipBytes(buffer) };
  return {
    url,
    status: response.status,
    html: page,
    js: group(js),
    css: group(css),
    totalGzip: page.gzip + group(js).gzip + group(css).gzip,
  };
}

/**
 * The pages the budget covers, with the cookies they need: home, product, cart and checkout with items, a paid
 * order's page, and the 404 page as the baseline of the bare app shell (not budgeted). Makes a cart and a paid order
 * through the shop's own no-JS forms and the payment service's Pay button.
 * @param baseUrl the shop, e.g. http://localhost:3200
 * @param serviceOrigin the payment service (emulator) origin the checkout redirects to, e.g. http://127.0.0.1:4210
 */
export async function prepareShopPages(baseUrl: string, serviceOrigin: string): Promise<ShopPage[]> {
  let cartCookie = await addToCart(baseUrl, { slug: "olive-oil", quantity: 2 });
  cartCookie = await addToCart(baseUrl, { slug: "saffron", quantity: 1, cookie: cartCookie });
  const order = await placePaidOrder(baseUrl, serviceOrigin);
  if (!isPaymentPage(order.paymentUrl, serviceOrigin)) throw new Error(`unexpected payment URL ${order.paymentUrl}`);
  return [
    { key: "home", name: "Home", path: "/", cookie: "", expectedStatus: 200, budgeted: true },
    { key: "product", name: "Product", path: "/products/olive-oil", cookie: "", expectedStatus: 200, budgeted: true },
    { key: "cart", name: "Cart (2 lines)", path: "/cart", cookie: cartCookie, expectedStatus: 200, budgeted: true },
    {
      key: "checkout",
      name: "Checkout (2 lines)",
      path: "/checkout",
      cookie: cartCookie,
      expectedStatus: 200,
      budgeted: true,
    },
    {
      key: "order",
      name: "Order (paid)",
      path: order.orderPath,
      cookie: order.cookie,
      expectedStatus: 200,
      budgeted: true,
    },
    {
      key: "shell",
      name: "404 (app shell baseline)",
      path: "/this-page-does-not-exist",
      cookie: "",
      expectedStatus: 404,
      budgeted: false,
    },
  ];
}

/** {@link prepareShopPages} then {@link measurePageWeight} for each page, one after the other. */
export async function measureShopPages(baseUrl: string, serviceOrigin: string): Promise<(ShopPage & PageWeight)[]> {
  const pages = await prepareShopPages(baseUrl, serviceOrigin);
  const results: (ShopPage & PageWeight)[] = [];
  for (const page of pages)
    results.push({ ...page, ...(await measurePageWeight(new URL(page.path, baseUrl).href, page.cookie)) });
  return results;
}

/** Bytes as KB with one decimal (1 KB = 1024 bytes). */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A plain-text table of {@link measureShopPages} results, for a console. */
export function formatWeights(results: (ShopPage & PageWeight)[]): string {
  const shell = results.find((result) => result.key === "shell");
  const rows = [["page", "status", "JS gz", "files", "vs shell", "CSS gz", "HTML gz", "total gz", "budget"]];
  for (const r of results) {
    const delta =
      shell && r !== shell ? `${r.js.gzip >= shell.js.gzip ? "+" : "-"}${kb(Math.abs(r.js.gzip - shell.js.gzip))}` : "";
    const verdict = r.budgeted ? (r.js.gzip <= JS_BUDGET_BYTES ? "ok" : "OVER") : "-";
    rows.push([
      r.name,
      String(r.status),
      kb(r.js.gzip),
      String(r.js.files.length),
      delta,
      kb(r.css.gzip),
      kb(r.html.gzip),
      kb(r.totalGzip),
      verdict,
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join("  "),
    )
    .join("\n");
}
