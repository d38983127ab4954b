import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { proxy } from "../proxy";

/** The Content-Security-Policy as a browser receives it from the proxy, in development and in production. */

const directive = (csp: string, name: string) => csp.split("; ").find((part) => part.startsWith(`${name} `));
const policyIn = async (mode: string) => {
  vi.stubEnv("NODE_ENV", mode);
  const csp = (await proxy(new NextRequest("http://localhost:3000/checkout"))).headers.get("content-security-policy")!;
  return { csp, nonce: /'nonce-([^']+)'/.exec(csp)?.[1] };
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("Content-Security-Policy", () => {
  it("lets Next's dev overlay style itself in development, where inline <style> has no nonce", async () => {
    const { csp } = await policyIn("development");
    expect(directive(csp, "style-src")).toBe("style-src 'self' 'unsafe-inline'");
    // Scripts keep their nonce: only styles are relaxed, and only in development.
    expect(directive(csp, "script-src")).toMatch(/^script-src 'self' 'nonce-[^']+' 'strict-dynamic' 'unsafe-eval'$/);
  });

  it("keeps styles to the nonce in production", async () => {
    const { csp, nonce } = await policyIn("production");
    expect(directive(csp, "style-src")).toBe(`style-src 'self' 'nonce-${nonce}'`);
    expect(directive(csp, "script-src")).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
  });
});
