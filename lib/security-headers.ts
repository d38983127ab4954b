/**
 * HTTP security headers of every page. The Content-Security-Policy is built per request with a fresh nonce
 * (proxy.ts); Next.js puts that nonce on its own scripts, so no inline script runs without it.
 */

/** Headers that never change, sent with every page (proxy.ts). */
export const STATIC_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  // Payment tokens travel in URLs (return_url?type=…&token=…): never hand full URLs to other sites.
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
  },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/**
 * The Content-Security-Policy for one response.
 * @param nonce a fresh random value for this response's scripts.
 * @param paymentOrigin the payment service's origin: forms may end up there, because the checkout's server action
 *   answers a no-JavaScript form post with a redirect to the payment page, and browsers check `form-action` on
 *   redirects too.
 * @param development allows `eval` (React's dev tooling needs it) and inline styles without a nonce (Next's dev
 *   overlay injects its own `<style>` elements); production allows neither.
 */
export function contentSecurityPolicy(nonce: string, paymentOrigin: string | null, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // A nonce switches 'unsafe-inline' off, so development lists 'unsafe-inline' alone.
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    // next/image writes a style attribute (color: transparent); attributes cannot carry a nonce.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${paymentOrigin ? ` ${paymentOrigin}` : ""}`,
    "frame-ancestors 'none'",
  ].join("; ");
}
