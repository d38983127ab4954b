import { eq } from "drizzle-orm";
import { cookies, headers } from "next/headers";
import { Pool } from "pg";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startAdminSession } from "@/lib/admin/auth";
import { createDb, getDb } from "@/lib/db/client";
import { adminUsers } from "@/lib/db/schema";
import { logger } from "@/lib/log";
import { quickAdmin } from "@/testing/admins";
import { setUpTestDatabase } from "@/testing/db";
import { signInAction, signOutAction } from "./actions";

/**
 * The back office's sign-in and sign-out actions as a browser meets them: a form in, a redirect and a cookie out, on
 * a real database (or one that is down). Only what Next.js gives an action (its cookies, its headers) is supplied by
 * the test.
 */

vi.mock("next/headers", () => ({ cookies: vi.fn(), headers: vi.fn() }));
vi.mock("@/lib/db/client", async (original) => ({
  ...(await original<typeof import("@/lib/db/client")>()),
  getDb: vi.fn(),
}));

const t = setUpTestDatabase();
/** A database that is down: nothing listens on port 1. */
const down = new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
afterAll(() => down.end());

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
