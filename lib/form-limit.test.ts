import type { NextConfig } from "next";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "../proxy";
import ar from "./i18n/messages/ar.json";
import en from "./i18n/messages/en.json";
import { MAX_LIST_BYTES } from "./admin/payment-list";
import { MAX_CATALOG_CSV_BYTES } from "./catalog/csv";
import { MAX_BULK_PICTURES, MAX_PICTURE_BYTES } from "./catalog/pictures";
import {
  formRefusedByProxy,
  MAX_BULK_PICTURES_BYTES,
  MAX_BULK_PICTURES_FORM_BYTES,
  MAX_CATALOG_FORM_BYTES,
  MAX_FORM_BYTES,
  MAX_LIST_FORM_BYTES,
  MAX_PICTURE_FORM_BYTES,
} from "./form-limit";

/**
 * Form posts as they reach the proxy. Over Next.js's 1 MB server-action limit the answer used to be a bare
 * "Internal Server Error"; anything over the shop's own limit now gets a page that says what happened.
 */

const post = (path: string, bytes: number, headers: Record<string, string> = {}) =>
  proxy(
    new NextRequest(`http://localhost:3000${path}`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(bytes), ...headers },
    }),
  );

describe("an oversized form post", () => {
  it.each([
    ["a checkout over 1 MB", 1_100_000],
    ["a checkout with 20,000 fields (1.7 MB of multipart)", 1_749_825],
    ["a checkout just over the shop's limit", MAX_FORM_BYTES + 1],
  ])("is answered 413 with a page that says so: %s", async (_name, bytes) => {
    const response = await post("/checkout", bytes);
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain(`<html lang="en" dir="ltr">`);
    expect(html).toContain(en.formTooLarge.title);
    expect(html).toContain(`<a href="/checkout">${en.formTooLarge.back}</a>`);
  });

  it("speaks the shopper's language, from the language cookie or the browser", async () => {
    const byBrowser = await (await post("/checkout", 2_000_000, { "accept-language": "ar-LY,ar;q=0.9" })).text();
    expect(byBrowser).toContain(`<html lang="ar" dir="rtl">`);
    expect(byBrowser).toContain(ar.formTooLarge.title);
    const byCookie = await (await post("/checkout", 2_000_000, { cookie: "NEXT_LOCALE=ar" })).text();
    expect(byCookie).toContain(ar.formTooLarge.title);
  });

  it("is refused as well when it is the client's own action call", async () => {
    expect(
      (await post("/checkout", 200_000, { "next-action": "4002fcce", "content-type": "text/plain;charset=UTF-8" }))
        .status,
    ).toBe(413);
  });

  it("escapes the path it links back to", async () => {
    const html = await (await post(`/checkout/%22%3E%3Cscript%3Ealert(1)%3C/script%3E`, 2_000_000)).text();
    expect(html).not.toContain("<script>");
  });

  it.each([
    ["a checkout of normal size", "/checkout", 935, {}],
    [
      "a large webhook body, which its route limits itself",
      "/api/payments/webhook",
      2_000_000,
      { "content-type": "application/json" },
    ],
    ["a large JSON post to a page (not a form)", "/checkout", 2_000_000, { "content-type": "application/json" }],
    ["a payment list of the largest size, with its form", "/admin/reconcile", MAX_LIST_BYTES + 8_000, {}],
  ])("lets through %s", async (_name, path, bytes, headers) => {
    expect((await post(path, bytes, headers)).headers.get("x-middleware-next")).toBe("1");
  });
});

describe("the payment list's form (the back office's reconciliation)", () => {
  it("reads a list the page can refuse with its own message, and stays under Next.js's 1 MB", () => {
    expect(MAX_LIST_FORM_BYTES).toBeGreaterThan(MAX_LIST_BYTES + 16 * 1024);
    expect(MAX_LIST_FORM_BYTES).toBeLessThan(1024 * 1024);
  });

  it("is refused over its limit with a page about lists, and only that page has the larger limit", async () => {
    const response = await post("/admin/reconcile", MAX_LIST_FORM_BYTES + 1);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(
      en.formTooLarge.textList.replace("{size}", String(MAX_LIST_FORM_BYTES / 1024)),
    );
    expect((await post("/admin/reconcile/lst_0123456789abcdef", MAX_FORM_BYTES + 1)).status).toBe(413);
    expect((await post("/admin/orders", MAX_FORM_BYTES + 1)).status).toBe(413);
  });
});

describe("a product picture's form (the back office's product page)", () => {
  it("reads a picture the page can refuse with its own message, and Next.js reads as much", async () => {
    const configFile: string = "../next.config.mjs"; // plain JavaScript: imported by name, without types
    const nextConfig = ((await import(configFile)) as { default: NextConfig }).default;
    expect(MAX_PICTURE_FORM_BYTES).toBeGreaterThan(MAX_PICTURE_BYTES + 16 * 1024);
    expect(nextConfig.experimental?.serverActions?.bodySizeLimit).toBeGreaterThanOrEqual(MAX_PICTURE_FORM_BYTES);
  });

  it("is refused over its limit with a page about pictures, and only a product's page has the larger limit", async () => {
    expect((await post("/admin/products/12", MAX_PICTURE_BYTES + 8_000)).headers.get("x-middleware-next")).toBe("1");
    const response = await post("/admin/products/12", MAX_PICTURE_FORM_BYTES + 1, { "accept-language": "ar" });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(ar.formTooLarge.textPicture);
    expect((await post("/admin/products/new", MAX_FORM_BYTES + 1)).status).toBe(413);
    expect((await post("/admin/products/12/x", MAX_FORM_BYTES + 1)).status).toBe(413);
  });
});

describe("the bulk picture upload's form (the back office's pictures by file name)", () => {
  it("is the largest form, and Next.js reads exactly as much", async () => {
    const configFile: string = "../next.config.mjs";
    const nextConfig = ((await import(configFile)) as { default: NextConfig }).default;
    expect(nextConfig.experimental?.serverActions?.bodySizeLimit).toBe(MAX_BULK_PICTURES_FORM_BYTES);
    // A few pictures at the largest one upload takes fit; the most files, each under the total's share, too.
    expect(MAX_BULK_PICTURES_BYTES).toBeGreaterThanOrEqual(4 * MAX_PICTURE_BYTES);
    expect(MAX_BULK_PICTURES).toBeGreaterThanOrEqual(20);
  });

  it("lets its largest upload through, refuses a larger one with a page about pictures, only on its own page", async () => {
    const through = await post("/admin/products/pictures", MAX_BULK_PICTURES_BYTES + 8_000);
    expect(through.headers.get("x-middleware-next")).toBe("1");
    const response = await post("/admin/products/pictures", MAX_BULK_PICTURES_FORM_BYTES + 1, {
      cookie: "NEXT_LOCALE=ar",
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(
      ar.formTooLarge.textPictures.replace("{size}", String(MAX_BULK_PICTURES_FORM_BYTES / 1024)),
    );
    expect((await post("/admin/products/12", MAX_PICTURE_FORM_BYTES + 1)).status).toBe(413);
    expect((await post("/admin/products/import", MAX_CATALOG_FORM_BYTES + 1)).status).toBe(413);
  });
});

describe("the catalogue CSV's form (the back office's product import)", () => {
  it("reads a file the page can refuse with its own message, and refuses a larger one with a page about catalogues", async () => {
    expect(MAX_CATALOG_FORM_BYTES).toBeGreaterThan(MAX_CATALOG_CSV_BYTES + 16 * 1024);
    // Next.js's own limit for server actions (next.config.mjs), which answers with a bare 500.
    expect(MAX_CATALOG_FORM_BYTES).toBeLessThan(5 * 1024 * 1024 + 64 * 1024);
    expect((await post("/admin/products/import", MAX_CATALOG_CSV_BYTES + 8_000)).headers.get("x-middleware-next")).toBe(
      "1",
    );
    const response = await post("/admin/products/import", MAX_CATALOG_FORM_BYTES + 1);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(
      en.formTooLarge.textCatalog.replace("{size}", String(MAX_CATALOG_FORM_BYTES / 1024)),
    );
    // "Apply" posts only the import's id and hash: its page keeps the ordinary limit.
    expect((await post("/admin/products/import/imp_0123456789abcdef", MAX_FORM_BYTES + 1)).status).toBe(413);
  });
});

describe("a form that nginx refused as too large (its error_page 413, a GET without the body)", () => {
  const refused = (headers: Record<string, string>) =>
    formRefusedByProxy(new NextRequest("http://127.0.0.1:3000/form-too-large", { headers }), "n0nce");

  it("gets the page the shop gives that form itself, linking back to the form's page from the Referer", async () => {
    const response = refused({ referer: "https://shop.example.ly/admin/products/12", cookie: "NEXT_LOCALE=ar" });
    expect(response.status).toBe(413);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain(`<html lang="ar" dir="rtl">`);
    expect(html).toContain(ar.formTooLarge.textPicture);
    expect(html).toContain(`<a href="/admin/products/12">${ar.formTooLarge.back}</a>`);
    expect(html).toContain(`<style nonce="n0nce">`);
    const catalogue = await refused({ referer: "https://shop.example.ly/admin/products/import" }).text();
    expect(catalogue).toContain(en.formTooLarge.textCatalog.replace("{size}", String(MAX_CATALOG_FORM_BYTES / 1024)));
  });

  it("links to the home page without a Referer, and never to another host", async () => {
    const html = await refused({}).text();
    expect(html).toContain(en.formTooLarge.title);
    expect(html).toContain(`<a href="/">${en.formTooLarge.back}</a>`);
    expect(await refused({ referer: "https://evil.example/phish" }).text()).toContain(`<a href="/phish">`);
  });
});

describe("a form post from another site", () => {
  const send = (path: string, headers: Record<string, string>) =>
    proxy(
      new NextRequest(`http://localhost:3000${path}`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x", "content-length": "300", ...headers },
      }),
    );

  it.each([
    ["another site's page", { origin: "https://evil.example" }],
    ["another port of the same host", { origin: "http://localhost:4010" }],
    ["a sandboxed frame (Origin: null)", { origin: "null" }],
    ["an Origin that is not a URL", { origin: "garbage" }],
    ["the client's own action call from another site", { origin: "https://evil.example", "next-action": "7f3a" }],
    ["the shop's host over another scheme", { origin: "https://localhost:3000" }],
    [
      "the public host over plain http, behind a proxy that says the shop is https",
      { "x-forwarded-host": "shop.example.ly", "x-forwarded-proto": "https", origin: "http://shop.example.ly" },
    ],
  ])("is refused with 403 and a page that says nothing was done: %s", async (_name, headers) => {
    const response = await send("/admin/orders/ord_0123456789abcdef", { host: "localhost:3000", ...headers });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain(en.formFromElsewhere.title);
    expect(html).toContain(`<a href="/admin/orders/ord_0123456789abcdef">${en.formFromElsewhere.back}</a>`);
  });

  it("speaks the visitor's language", async () => {
    const html = await (
      await send("/admin/sign-in", {
        host: "localhost:3000",
        origin: "https://evil.example",
        cookie: "NEXT_LOCALE=ar",
      })
    ).text();
    expect(html).toContain(`<html lang="ar" dir="rtl">`);
    expect(html).toContain(ar.formFromElsewhere.title);
  });

  it.each([
    ["the shop's own page", { host: "localhost:3000", origin: "http://localhost:3000" }],
    [
      "the public origin behind a proxy that rewrites Host (SITE_URL, or X-Forwarded-Host)",
      {
        host: "127.0.0.1:3000",
        "x-forwarded-host": "shop.example.ly",
        "x-forwarded-proto": "https",
        origin: "https://shop.example.ly",
      },
    ],
    ["a post without Origin (not a browser's)", { host: "localhost:3000" }],
  ])("lets through %s", async (_name, headers) => {
    expect((await send("/admin/sign-in", headers)).headers.get("x-middleware-next")).toBe("1");
  });

  it("leaves the payment service's webhook alone, wherever it comes from", async () => {
    const response = await proxy(
      new NextRequest("http://localhost:3000/api/payments/webhook", {
        method: "POST",
        headers: { "content-type": "application/json", host: "localhost:3000", origin: "https://pay.example.ly" },
      }),
    );
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });
});

describe("a NUL character (U+0000), which no stored text may hold", () => {
  /** A form as a browser posts it, with its real body. */
  const submit = (path: string, fields: Record<string, string>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return proxy(new NextRequest(`http://localhost:3000${path}`, { method: "POST", body }));
  };

  it("in a form's field (mark-paid with a NUL in its id) is refused with 400 and a page that says so", async () => {
    const response = await submit("/admin/orders/ord_0123456789abcdef", {
      id: "ord_0123456789abcdef\u0000",
      reference: "T-1",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain(en.nulCharacter.title);
    expect(html).toContain(`<a href="/admin/orders/ord_0123456789abcdef">${en.nulCharacter.back}</a>`);
  });

  it("in the address, its path or its query, is refused the same way, in the visitor's language", async () => {
    const get = (path: string) =>
      proxy(new NextRequest(`http://localhost:3000${path}`, { headers: { cookie: "NEXT_LOCALE=ar" } }));
    for (const path of ["/admin/orders/ord_%00", "/admin/orders?q=%00", "/orders/x%00y"]) {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(ar.nulCharacter.title);
    }
  });

  it("lets through a form without one, and a picture's bytes that hold zeros", async () => {
    expect(
      (
        await submit("/admin/orders/ord_0123456789abcdef", { id: "ord_0123456789abcdef", reference: "T-1" })
      ).headers.get("x-middleware-next"),
    ).toBe("1");
    const body = new FormData();
    body.append("picture", new File([new Uint8Array([0x89, 0x50, 0, 0, 0])], "photo.png", { type: "image/png" }));
    const upload = await proxy(new NextRequest("http://localhost:3000/admin/products/12", { method: "POST", body }));
    expect(upload.headers.get("x-middleware-next")).toBe("1");
  });
});
