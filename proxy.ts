import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { refuseCrossSiteForm, refuseNulCharacters, refuseOversizedForm } from "@/lib/form-limit";
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS } from "@/lib/security-headers";

/**
 * Gives every page the security headers and a Content-Security-Policy with a fresh nonce, which Next.js applies to
 * its own scripts. Admin pages are also marked noindex and no-store; who may see them is checked by each page on the
 * server (lib/admin/auth.ts), not here. A form post too large to be one of the shop's, or sent from another site, is
 * answered here, with a page that says so (lib/form-limit.ts); so is a NUL character in the address or a form's field.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  const nonce = btoa(crypto.randomUUID());
  let paymentOrigin: string | null = null;
  let siteUrl: string | undefined;
  try {
    siteUrl = getEnv().SITE_URL;
    paymentOrigin = new URL(getEnv().PAYMENT_API_BASE_URL).origin;
  } catch {
    // A broken environment is reported by the pages that need it; the policy just stays at 'self'.
  }
  const csp = contentSecurityPolicy(nonce, paymentOrigin, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  // A form over the shop's limit, or sent from another site, never reaches Next.js, which answers both with a bare 500;
  // nor does a NUL character, which the database refuses (a bare 500 as well).
  const response =
    refuseOversizedForm(request, nonce) ??
    refuseCrossSiteForm(request, nonce, siteUrl) ??
    (await refuseNulCharacters(request, nonce)) ??
    NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  for (const { key, value } of STATIC_SECURITY_HEADERS) response.headers.set(key, value);
  // The back office is for the merchant's eyes only: never indexed, never kept by a browser or a CDN.
  if (request.nextUrl.pathname === "/admin" || request.nextUrl.pathname.startsWith("/admin/")) {
    response.headers.set("X-Robots-Tag", "noindex, nofollow");
    response.headers.set("Cache-Control", "no-store");
  }
  return response;
}

export const config = {
  matcher: [
    {
      // Pages and route handlers; not build assets or files from public/ (anything with an extension).
      source: "/((?!_next/static|_next/image|.*\\.[a-z0-9]+$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
