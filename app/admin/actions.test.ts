import { eq } from "drizzle-orm";
import { after } from "next/server";
import { cookies, headers } from "next/headers";
import { Pool } from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startAdminSession } from "@/lib/admin/auth";
import { createDb, getDb } from "@/lib/db/client";
import { adminUsers } from "@/lib/db/schema";
import ar from "@/lib/i18n/messages/ar.json";
import { emailSettings } from "@/lib/env";
import { logger } from "@/lib/log";
import { quickAdmin } from "@/testing/admins";
import { setUpTestDatabase } from "@/testing/db";
import { startTestSmtpServer, type TestSmtpServer } from "@/testing/smtp";
import { requestSignInLinkAction, signInAction, signOutAction } from "./actions";
import { BRAND } from "@/lib/brand";

/**
 * The back office's sign-in and sign-out actions as a browser meets them: a form in, a redirect and a cookie out, on
 * a real database (or one that is down) and a real SMTP server. Only what Next.js gives an action (its cookies, its
 * headers, `after()`, the request's language) is supplied by the test.
 */

vi.mock("next/headers", () => ({ cookies: vi.fn(), headers: vi.fn() }));
vi.mock("next/server", async (original) => ({ ...(await original<typeof import("next/server")>()), after: vi.fn() }));
vi.mock("next-intl/server", () => ({ getLocale: vi.fn(async () => "ar") }));
vi.mock("@/lib/db/client", async (original) => ({
  ...(await original<typeof import("@/lib/db/client")>()),
  getDb: vi.fn(),
}));
vi.mock("@/lib/env", async (original) => ({
  ...(await original<typeof import("@/lib/env")>()),
  emailSettings: vi.fn(),
}));

const t = setUpTestDatabase();
/** A database that is down: nothing listens on port 1. */
const down = new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await down.end();
  await smtp?.stop();
});

/** The browser's cookies, as the action reads and sets them. */
let jar: Map<string, string>;
beforeEach(() => {
  jar = new Map();
  vi.mocked(cookies).mockResolvedValue({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string, options?: { maxAge?: number }) => {
      if (options?.maxAge === 0) jar.delete(name);
      else jar.set(name, value);
    },
  } as never);
  vi.mocked(headers).mockResolvedValue(new Headers({ "x-forwarded-for": "203.0.113.50" }) as never);
  vi.mocked(after).mockReset();
  vi.mocked(emailSettings).mockReturnValue({
    smtpUrl: smtp.url,
    from: "Medina Market <shop@shop.ly>",
    merchantEmail: undefined,
    merchantLocale: "en",
    siteUrl: "https://shop.example.ly",
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

describe("signing out", () => {
  it("with the database down, clears this browser's cookie and says the other devices are still signed in", async () => {
    vi.mocked(getDb).mockReturnValue(t.db);
    const id = await quickAdmin(t.db, "signs-out-offline@shop.ly", "a-sign-out-password");
    await startAdminSession({ id, email: "signs-out-offline@shop.ly" }, 0);
    expect(jar.has("admin_session")).toBe(true);
    const error = vi.spyOn(logger, "error");

    vi.mocked(getDb).mockReturnValue(createDb(down));
    expect(await redirectOf(signOutAction())).toBe("/admin/sign-in?signed-out=this-browser");
    expect(jar.has("admin_session")).toBe(false);
    expect(error).toHaveBeenCalledWith({
      event: "admin_sign_out_not_recorded",
      code: "ECONNREFUSED",
      operation: "update admin_users",
    });
    // True to its word: the account's sessions elsewhere were not ended.
    const [row] = await t.db.select().from(adminUsers).where(eq(adminUsers.id, id));
    expect(row!.sessionVersion).toBe(0);
  });

  it("with the database up, ends the session everywhere and says so", async () => {
    vi.mocked(getDb).mockReturnValue(t.db);
    const id = await quickAdmin(t.db, "signs-out@shop.ly", "a-sign-out-password");
    await startAdminSession({ id, email: "signs-out@shop.ly" }, 0);
    expect(await redirectOf(signOutAction())).toBe("/admin/sign-in?signed-out=everywhere");
    expect(jar.has("admin_session")).toBe(false);
    const [row] = await t.db.select().from(adminUsers).where(eq(adminUsers.id, id));
    expect(row!.sessionVersion).toBe(1);
  });
});

describe("signing in", () => {
  it.each([
    ["a NUL", "owner\u0000@shop.ly"],
    ["another control character", "owner@shop\u0007.ly"],
    ["no address at all", "owner"],
  ])("with %s in the e-mail, says it is not an e-mail address, before asking the database", async (_name, email) => {
    vi.mocked(getDb).mockReturnValue(createDb(down));
    expect(await redirectOf(signInAction(form({ email, password: "whatever-was-typed" })))).toBe(
      "/admin/sign-in?error=notAnEmail",
    );
  });
});

describe("asking for a sign-in link", () => {
  it("answers an e-mail without an account as one with, and e-mails the account its link after the response, in the page's language", async () => {
    vi.mocked(getDb).mockReturnValue(t.db);
    await quickAdmin(t.db, "asks-for-a-link@shop.ly", "a-password-for-links");
    expect(await redirectOf(requestSignInLinkAction(form({ email: "no-account@shop.ly" })))).toBe(
      "/admin/sign-in/link?sent=1",
    );
    expect(after).not.toHaveBeenCalled();
    expect(await redirectOf(requestSignInLinkAction(form({ email: "asks-for-a-link@shop.ly" })))).toBe(
      "/admin/sign-in/link?sent=1",
    );
    // Nothing was sent while the request was being answered; it goes once the response has left.
    expect(smtp.messages).toHaveLength(0);
    expect(after).toHaveBeenCalledTimes(1);
    await (vi.mocked(after).mock.calls[0]![0] as () => Promise<void>)();
    const [mail] = smtp.messages;
    expect(JSON.stringify(mail!.to)).toContain("asks-for-a-link@shop.ly");
    expect(mail!.subject).toBe(ar.email.signInLink.subject.replace("{shop}", BRAND.name.ar));
    expect(mail!.text).toMatch(/https:\/\/shop\.example\.ly\/admin\/sign-in\/link\?token=[\w-]{43}/);
    expect(mail!.text).toContain("203.0.113.50");
  });

  it("with a NUL in the e-mail, says it is not an e-mail address", async () => {
    vi.mocked(getDb).mockReturnValue(createDb(down));
    expect(await redirectOf(requestSignInLinkAction(form({ email: "a\u0000@shop.ly" })))).toBe(
      "/admin/sign-in/link?error=notAnEmail",
    );
  });
});
