import "server-only";
import { isIP } from "node:net";
import { headers } from "next/headers";
import { getEnv } from "./env";

/**
 * The client's IP address, for what is limited per address: the back office's sign-in limits and the checkout's budget
 * of new payments. Taken only from a source this deployment trusts:
 * - on Vercel, `x-real-ip`, which Vercel's edge sets (a client cannot);
 * - behind your own reverse proxies (`TRUSTED_PROXY_HOPS` = how many), the address the outermost of them saw: the
 *   N-th `X-Forwarded-For` entry from the right, since each proxy appends the address it was reached from;
 * - with no proxy, the `X-Forwarded-For` that `next start` sets from the socket — which it keeps, unchanged, when the
 *   client sent one of its own, so a server exposed directly cannot know: there a client may claim any address, even
 *   an admin's familiar one, and only the per-e-mail-and-address limit holds for it. Run behind a proxy.
 * @returns a valid IPv4 or IPv6 address, or "unknown" (never a client's arbitrary text).
 */
export async function clientIp(): Promise<string> {
  return clientAddress(await headers(), {
    vercel: Boolean(process.env.VERCEL),
    trustedProxyHops: getEnv().TRUSTED_PROXY_HOPS,
  });
}

/** {@link clientIp}'s rule on plain headers (exported for its tests). */
export function clientAddress(
  list: Pick<Headers, "get">,
  { vercel, trustedProxyHops }: { vercel: boolean; trustedProxyHops: number },
): string {
  const forwarded = (list.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim());
  const candidate = vercel
    ? list.get("x-real-ip")
    : trustedProxyHops > 0
      ? forwarded[forwarded.length - trustedProxyHops]
      : forwarded[0];
  const address = candidate?.trim() ?? "";
  return address.length <= 45 && isIP(address) ? address : "unknown";
}
