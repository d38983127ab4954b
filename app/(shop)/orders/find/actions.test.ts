import { cookies, headers } from "next/headers";
import { Pool } from "pg";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb, getDb } from "@/lib/db/client";
import { getEnv, smsSettings } from "@/lib/env";
import { newOrderId } from "@/lib/ids";
import { orderLinkKey } from "@/lib/orders/order-link";
import { sendLookupCodeAfterResponse } from "@/lib/sms/lookup-code";
import { setUpTestDatabase } from "@/testing/db";
import { storeOrder } from "@/testing/orders";
import { requestLookupCodeAction, verifyLookupCodeAction } from "./actions";

/**
 * Find my order's two actions as a browser meets them: a form in, a redirect and the session cookie out, on a real
 * database (or one that is down). Only what Next.js gives an action (its cookies, its headers), whether text messages
 * are on, and the texting after the response (lib/sms/lookup-code.ts, whose own test sends) are supplied by the test.
 */

vi.mock("next/headers", () => ({ cookies: vi.fn(), headers: vi.fn() }));
vi.mock("@/lib/sms/lookup-code", () => ({ sendLookupCodeAfterResponse: vi.fn() }));
vi.mock("@/lib/db/client", async (original) => ({
  ...(await original<typeof import("@/lib/db/client")>()),
  getDb: vi.fn(),
}));
vi.mock("@/lib/env", async (original) => ({
  ...(await original<typeof import("@/lib/env")>()),
  smsSettings: vi.fn(),
}));

const t = setUpTestDatabase();
/** A database that is down: nothing listens on port 1. */
const down = new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
afterAll(() => down.end());

/** The browser's cookies, as the actions read and set them. */
let jar: Map<string, string>;
beforeEach(() => {
  jar = new Map();
  vi.mocked(cookies).mockResolvedValue({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  } as never);
  vi.mocked(headers).mockResolvedValue(new Headers({ "x-forwarded-for": "203.0.113.60" }) as never);
  vi.mocked(sendLookupCodeAfterResponse).mockReset();
  vi.mocked(getDb).mockReturnValue(t.db);
  vi.mocked(smsSettings).mockReturnValue({
    smppUrl: "smpp://127.0.0.1:1",
    systemId: "medina-test",
    password: "",
    senderName: "Medina",
    dailyLimit: 500,
    siteUrl: "https://shop.example.ly",
    orderLinkSecret: getEnv().ORDER_LINK_SECRET,
  });
});

/** Where an action sent the browser (its `redirect()`). */
async function redirectOf(action: Promise<void>): Promise<string> {
  try {
    await action;
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;")) return digest.split(";")[2]!;
    throw error;
  }
  throw new Error("the action did not redirect");
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("asking for a code", () => {
  it("with text messages off, goes back to the page (which says so) without asking the database", async () => {
    vi.mocked(smsSettings).mockReturnValue(null);
    vi.mocked(getDb).mockReturnValue(createDb(down));
    const id = newOrderId();
    expect(await redirectOf(requestLookupCodeAction(form({ order: id, phone: "0912345678" })))).toBe("/orders/find");
  });

  it("says a malformed order number or a phone that is no Libyan mobile on its field, before the database", async () => {
    vi.mocked(getDb).mockReturnValue(createDb(down));
    expect(await redirectOf(requestLookupCodeAction(form({ order: "ord_123", phone: "0912345678" })))).toBe(
      "/orders/find?error=orderNumber",
    );
    const id = newOrderId();
    expect(await redirectOf(requestLookupCodeAction(form({ order: id.toUpperCase(), phone: "021 234 5678" })))).toBe(
      `/orders/find?error=phone&order=${id}`,
    );
  });

  it("with the database down, says to try again in a moment", async () => {
    vi.mocked(getDb).mockReturnValue(createDb(down));
    expect(await redirectOf(requestLookupCodeAction(form({ order: newOrderId(), phone: "0912345678" })))).toBe(
      "/orders/find?error=unavailable",
    );
  });

  it("answers a wrong phone as the right one, and texts a code only to the order's own phone, in its language", async () => {
    const { id } = await storeOrder(t.db, { status: "paid", phone: "0913334455", locale: "ar" });
    expect(await redirectOf(requestLookupCodeAction(form({ order: id, phone: "0913334456" })))).toBe(
      "/orders/find?sent=1",
    );
    expect(jar.has("shop_session")).toBe(true);
    expect(sendLookupCodeAfterResponse).not.toHaveBeenCalled();
    expect(await redirectOf(requestLookupCodeAction(form({ order: id, phone: "+218 91 333 4455" })))).toBe(
      "/orders/find?sent=1",
    );
    expect(sendLookupCodeAfterResponse).toHaveBeenCalledExactlyOnceWith({
      to: "+218913334455",
      code: expect.stringMatching(/^\d{6}$/),
      locale: "ar",
      expiresAt: expect.any(Date),
    });
  });
});

describe("entering the code", () => {
  it("says a malformed code and how many tries are left, opens the order's signed link with the right code, once", async () => {
    const { id } = await storeOrder(t.db, { status: "paid", phone: "0913334466" });
    expect(await redirectOf(requestLookupCodeAction(form({ order: id, phone: "0913334466" })))).toBe(
      "/orders/find?sent=1",
    );
    const texted = vi.mocked(sendLookupCodeAfterResponse).mock.calls[0]![0];

    expect(await redirectOf(verifyLookupCodeAction(form({ code: "12" })))).toBe("/orders/find?sent=1&error=code");
    const wrong = String((Number(texted.code) + 1) % 1_000_000).padStart(6, "0");
    expect(await redirectOf(verifyLookupCodeAction(form({ code: wrong })))).toBe(
      "/orders/find?sent=1&error=wrongCode&left=4",
    );
    expect(await redirectOf(verifyLookupCodeAction(form({ code: texted.code })))).toBe(
      `/orders/${id}?key=${orderLinkKey(id, getEnv().ORDER_LINK_SECRET)}`,
    );
    expect(await redirectOf(verifyLookupCodeAction(form({ code: texted.code })))).toBe("/orders/find?error=expired");
  });
});
