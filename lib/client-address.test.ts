import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address";

const headers = (values: Record<string, string>) => new Headers(values);

describe("the client address the sign-in limits and the checkout's budget count", () => {
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

  it("without a proxy is the address next start set from the socket", () => {
    expect(
      clientAddress(headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), { vercel: false, trustedProxyHops: 0 }),
    ).toBe("::ffff:127.0.0.1");
  });

  it("is 'unknown' for anything that is not an address: junk, a 3,000-character value, too few hops", () => {
    const options = { vercel: false, trustedProxyHops: 0 };
    expect(clientAddress(headers({ "x-forwarded-for": "not-an-ip" }), options)).toBe("unknown");
    expect(clientAddress(headers({ "x-forwarded-for": "1".repeat(3_000) }), options)).toBe("unknown");
    expect(clientAddress(headers({}), options)).toBe("unknown");
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.9" }), { vercel: false, trustedProxyHops: 2 })).toBe(
      "unknown",
    );
  });
});
