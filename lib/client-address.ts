import "server-only";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { isIP, isIPv4, type Socket } from "node:net";
import { ipAddress } from "@vercel/functions";
import { headers } from "next/headers";
import { EnvError, getEnv } from "./env";
import { logger } from "./log";

/**
 * Who a request counts as, for everything limited per client: the back office's sign-in limits, the checkout's
 * budget of new payments and the budget of held stock. Every one of them calls this, and only this.
 *
 * The address comes only from a source this deployment trusts:
 * - on Vercel, `x-real-ip`, which Vercel's edge sets (a client cannot);
 * - behind your own reverse proxies (`TRUSTED_PROXY_HOPS` = how many), the address the outermost of them saw: the
 *   N-th `X-Forwarded-For` entry from the right, since each proxy appends the address it was reached from. A proxy
 *   that sent fewer entries than that (misconfigured) yields the nearest entry, the one the shop's own peer gave, and
 *   a warning in the log;
 * - with no proxy (the default, a plain `npm start`), the TCP peer's address: {@link believeOnlyTheSocket} replaces
 *   any `X-Forwarded-For` a client sent before the request reaches Next.js.
 *
 * @returns the budget key of that address (see {@link budgetKey}): an IPv4 address, or an IPv6 /64 such as
 *   `2001:db8:1:2::/64`; "unknown" only when the server was given no address at all (never from a client's text).
 */
export async function clientIp(): Promise<string> {
  return clientAddress(await headers(), {
    vercel: Boolean(process.env.VERCEL),
    trustedProxyHops: getEnv().TRUSTED_PROXY_HOPS,
  });
}

let warnedShortChain = false;

/** {@link clientIp}'s rule on plain headers (exported for its tests). */
export function clientAddress(
  list: Pick<Headers, "get">,
  { vercel, trustedProxyHops }: { vercel: boolean; trustedProxyHops: number },
): string {
  if (vercel) return budgetKey(ipAddress(list) ?? "");
  const forwarded = (list.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim());
  // Without a proxy the header holds the socket's address alone (believeOnlyTheSocket), the last entry as with one.
  const nearest = budgetKey(forwarded.at(-1) ?? "");
  if (trustedProxyHops <= 1) return nearest;
  const outermost = forwarded.length >= trustedProxyHops ? forwarded[forwarded.length - trustedProxyHops]! : "";
  const key = budgetKey(outermost);
  if (key !== "unknown") return key;
  if (!warnedShortChain) {
    warnedShortChain = true;
    logger.warn(
      { event: "proxy_chain_short", trustedProxyHops, entries: forwarded.length },
      "TRUSTED_PROXY_HOPS is more than the X-Forwarded-For entries your proxies sent: counting each client as the nearest proxy's entry. Set it to the number of proxies in front of the shop.",
    );
  }
  return nearest;
}

/**
 * The key an address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one, `::ffff:192.0.2.1`, as
 * its IPv4), an IPv6 address as its /64 (`2001:db8:1:2::/64`), since one customer's line is given a whole /64 and
 * may use any address in it. @returns "unknown" for anything that is not an address.
 */
export function budgetKey(address: string): string {
  const text = address.trim().split("%")[0]!; // an IPv6 zone (`fe80::1%eth0`) names an interface, not a host
  if (text.length > 45 || !isIP(text)) return "unknown";
  if (isIPv4(text)) return text;
  const groups = expandIPv6(text.toLowerCase());
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function expandIPv6(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (side: string) => (side ? side.split(":").map((group) => parseInt(group, 16)) : []);
  const [left, right] = [part(head), part(tail ?? "")];
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

let installed = false;

/**
 * Makes the TCP peer's address the only one a request carries, when no proxy of the merchant's is trusted
 * (`TRUSTED_PROXY_HOPS` 0, not on Vercel): before Next.js sees a request, its `X-Forwarded-For` is replaced by the
 * socket's address. Next.js keeps a client's own `X-Forwarded-For` (it fills the header from the socket only when
 * there is none), so without this any client could be any address it liked on a shop served directly. Hooked on
 * Node's `http.server.request.start` diagnostics channel, which every Node HTTP server of this process publishes to
 * (`next start`, the standalone `server.js`, `next dev`), so no start command or wrapper changes. Requests that
 * arrive while the server is still starting, before instrumentation.ts runs this, keep what they sent.
 *
 * It also logs, once, a request that looks proxied (a forwarding header, from a loopback or private peer): behind a
 * proxy that trusts no hop, every customer counts as the proxy's one address.
 * @returns a function that removes the hook again (for tests); a no-op when nothing was installed.
 */
export function believeOnlyTheSocket(): () => void {
  let hops;
  try {
    hops = getEnv().TRUSTED_PROXY_HOPS;
  } catch (error) {
    if (error instanceof EnvError) return () => {}; // lib/startup.ts reports it, and a production server stops
    throw error;
  }
  if (installed || process.env.VERCEL || hops > 0) return () => {};
  installed = true;
  let warned = false;
  const replace = (message: unknown) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    const peer = socket.remoteAddress;
    if (!warned && looksProxied(request, peer)) {
      warned = true;
      logger.warn(
        { event: "proxy_not_trusted", peer },
        "Requests arrive through a proxy (X-Forwarded-For or Forwarded from a private address) but TRUSTED_PROXY_HOPS is 0: every customer counts as the proxy's address. Set TRUSTED_PROXY_HOPS to the number of proxies in front of the shop (nginx: 1).",
      );
    }
    if (peer) request.headers["x-forwarded-for"] = peer;
    else delete request.headers["x-forwarded-for"];
  };
  subscribe(CHANNEL, replace);
  return () => {
    unsubscribe(CHANNEL, replace);
    installed = false;
  };
}

const CHANNEL = "http.server.request.start";

/** Whether `request` carries a forwarding header and came from a loopback or private address (a proxy's). */
function looksProxied(request: IncomingMessage, peer: string | undefined): boolean {
  if (!request.headers["x-forwarded-for"] && !request.headers.forwarded) return false;
  const key = budgetKey(peer ?? "");
  return (
    /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(key) ||
    /^(fc|fd)[0-9a-f]{2}:/.test(key) ||
    key === "0:0:0:0::/64"
  );
}
