import { NextRequest } from "next/server";
import { Pool } from "pg";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb, getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { getSession } from "@/lib/session";
import { paymentRedirectHandler } from "./payment-redirect";

/**
 * The return URL during a database outage, as the operator reads it in the log: what failed and where, never the
 * payment token or the session id that the failed query carried as parameters.
 */

vi.mock("@/lib/db/client", async (original) => ({
  ...(await original<typeof import("@/lib/db/client")>()),
  getDb: vi.fn(),
}));
vi.mock("@/lib/session", () => ({ getSession: vi.fn() }));

const SESSION_ID = "session-3f1e0c2a9b7d4e6f";
const TOKEN = "pt-secret-looking-token-7c9e";
const pool = new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
afterAll(() => pool.end());

beforeEach(() => {
  vi.mocked(getDb).mockReturnValue(createDb(pool));
  vi.mocked(getSession).mockResolvedValue({
    id: SESSION_ID,
    cart: { lines: [] },
    orderId: "ord_0123456789abcdef",
    save: vi.fn(),
  } as never);
});

describe("the return from the payment page with the database down", () => {
  it("lands on the order page's not_recorded notice and logs the error's code and operation, not its parameters", async () => {
    const error = vi.spyOn(logger, "error");
    const response = await paymentRedirectHandler("success")(
      new NextRequest(`http://shop.test/checkout/return?type=success&token=${TOKEN}`),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/orders/ord_0123456789abcdef?outcome=not_recorded");
    expect(error).toHaveBeenCalledWith({
      event: "payment_redirect_failed",
      expected: "success",
      code: "ECONNREFUSED",
      operation: "select orders",
    });
    const logged = JSON.stringify(error.mock.calls);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(SESSION_ID);
  });
});
