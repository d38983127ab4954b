import { describe, expect, it } from "vitest";
import { signInAttempts } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { FAMILIAR_FOR_MS, LOCKOUT_WINDOW_MS } from "./auth";
import { deleteOldSignInAttempts } from "./sign-in-attempts";

const t = setUpTestDatabase();

describe("the scheduled clean-up of sign-in attempts", () => {
  it("deletes only the attempts older than every window the sign-in limits read", async () => {
    const now = new Date("2026-11-25T19:30:00Z");
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const rows = [
      // Read by the limits: a failure within the lockout window, and successes that make an address familiar.
      { email: "a@shop.ly", ip: "10.0.0.1", succeeded: false, at: ago(LOCKOUT_WINDOW_MS - 1) },
      { email: "a@shop.ly", ip: "10.0.0.1", succeeded: true, at: ago(FAMILIAR_FOR_MS - 60_000) },
      { email: "a@shop.ly", ip: "10.0.0.2", succeeded: true, at: ago(FAMILIAR_FOR_MS) },
      // Read by nothing any more.
      { email: "a@shop.ly", ip: "10.0.0.3", succeeded: true, at: ago(FAMILIAR_FOR_MS + 1) },
      { email: "b@shop.ly", ip: "10.0.0.4", succeeded: false, at: ago(FAMILIAR_FOR_MS + 86_400_000) },
    ];
    await t.db.insert(signInAttempts).values(rows);
    expect(await deleteOldSignInAttempts(t.db, now)).toBe(2);
    const left = await t.db.select({ ip: signInAttempts.ip }).from(signInAttempts);
    expect(left.map((row) => row.ip).sort()).toEqual(["10.0.0.1", "10.0.0.1", "10.0.0.2"]);
    expect(await deleteOldSignInAttempts(t.db, now)).toBe(0);
  });
});
