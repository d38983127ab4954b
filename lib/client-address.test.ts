import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { believeOnlyTheSocket, budgetKey, clientAddress } from "./client-address";

const headers = (values: Record<string, string>) => new Headers(values);
const direct = { vercel: false, trustedProxyHops: 0 };

describe("the client address every per-address budget counts (sign-in limits, new payments, held stock)", () => {
  it("behind one trusted proxy is the address that proxy saw, whatever the client wrote before it", () => {
    const spoofed = headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }); // the client wrote 6.6.6.6; nginx appended
    expect(clientAddress(spoofed, { vercel: false, trustedProxyHops: 1 })).toBe("203.0.113.9");
    expect(
      clientAddress(headers({ "x-forwarded-for": "6.6.6.6, 198.51.100.4, 203.0.113.9" }), {
        vercel: false,
        trustedProxyHops: 2,
      }),
    ).toBe("198.51.100.4");
  });

  it("on Vercel is Vercel's own x-real-ip, never the client's X-Forwarded-For", () => {
    const request = headers({ "x-forwarded-for": "6.6.6.6", "x-real-ip": "203.0.113.9" });
    expect(clientAddress(request, { vercel: true, trustedProxyHops: 0 })).toBe("203.0.113.9");
  });

  it("without a proxy is the socket's address, which believeOnlyTheSocket left as the header's only entry", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), direct)).toBe("127.0.0.1");
    // Were a client's header ever left in place, its leftmost entry (the client's claim) is not what counts.
    expect(clientAddress(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }), direct)).toBe("203.0.113.9");
  });

  it("when a trusted proxy sends fewer entries than TRUSTED_PROXY_HOPS, or junk, is the nearest entry, not 'unknown'", () => {
    const twoHops = { vercel: false, trustedProxyHops: 2 };
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.9" }), twoHops)).toBe("203.0.113.9");
    expect(clientAddress(headers({ "x-forwarded-for": "not-an-ip, 203.0.113.9" }), twoHops)).toBe("203.0.113.9");
  });

  it("is 'unknown' only when no address was given at all, never a client's text", () => {
    expect(clientAddress(headers({}), direct)).toBe("unknown");
    expect(clientAddress(headers({ "x-forwarded-for": "not-an-ip" }), direct)).toBe("unknown");
    expect(clientAddress(headers({ "x-forwarded-for": "1".repeat(3_000) }), direct)).toBe("unknown");
    expect(clientAddress(headers({}), { vercel: true, trustedProxyHops: 0 })).toBe("unknown");
  });
});

describe("the budget key of an address", () => {
  it("is an IPv4 address as it is, and an IPv4-mapped IPv6 address as its IPv4", () => {
    expect(budgetKey("203.0.113.9")).toBe("203.0.113.9");
    expect(budgetKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(budgetKey("::FFFF:cb00:7109")).toBe("203.0.113.9");
  });

  it("counts IPv6 by its /64: every address of one customer's line is one budget, the next /64 another", () => {
    const key = "2001:db8:1:2::/64";
    expect(budgetKey("2001:db8:1:2::1")).toBe(key);
    expect(budgetKey("2001:0db8:0001:0002:ffff:ffff:ffff:fffe")).toBe(key);
    expect(budgetKey("2001:db8:1:2:a:b:1.2.3.4")).toBe(key);
    expect(budgetKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(budgetKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(budgetKey("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("is 'unknown' for anything that is not an address", () => {
    for (const junk of ["", "unknown", "2001:db8::/64", "1.2.3", "x".repeat(50), "::ffff:999.0.0.1"])
      expect(budgetKey(junk)).toBe("unknown");
  });
});

describe("believeOnlyTheSocket", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("replaces the X-Forwarded-For a client sent with its socket's address before the server sees the request", async () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "0");
    const uninstall = believeOnlyTheSocket();
    const server = createServer((request, response) => response.end(request.headers["x-forwarded-for"]));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const seen = (localAddress: string) =>
      new Promise<string>((resolve, reject) => {
        const sent = httpRequest(
          { host: "127.0.0.1", port, localAddress, headers: { "X-Forwarded-For": "6.6.6.6" } },
          (response) => {
            let body = "";
            response.on("data", (chunk) => (body += chunk));
            response.on("end", () => resolve(body));
          },
        );
        sent.once("error", reject);
        sent.end();
      });
    try {
      expect(await seen("127.0.0.7")).toBe("127.0.0.7");
      expect(await seen("127.0.0.8")).toBe("127.0.0.8");
      uninstall();
      expect(await seen("127.0.0.7")).toBe("6.6.6.6"); // what Next.js alone would keep
    } finally {
      uninstall();
      server.close();
    }
  });
});
