import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { signInLinks } from "../db/schema";
import { quickAdmin } from "../../testing/admins";
import { setUpTestDatabase } from "../../testing/db";
import { isFamiliar, signIn, signInGates } from "./auth";
import { findSignInLink, LINK_LIMITS, LINK_TTL_MS, requestSignInLink, signInWithLink } from "./sign-in-links";

/** One-time sign-in links against a real database: what asking reveals, the limits, expiry, and one use only. */

const t = setUpTestDatabase();
let second: Pool;
beforeAll(() => {
  second = new Pool({ connectionString: t.url, max: 5 });
});
afterAll(() => second?.end());

const minutesLater = (minutes: number, from = new Date()) => new Date(from.getTime() + minutes * 60_000);
const rowsFor = (email: string) => t.db.select().from(signInLinks).where(eq(signInLinks.email, email));

describe("asking for a sign-in link", () => {
  it("answers an unknown e-mail as an account's, e-mails a link only to the account, and stores only its hash", async () => {
    await quickAdmin(t.db, "linked@shop.ly", "a-password-for-links");
    const unknown = await requestSignInLink(t.db, { email: "nobody@shop.ly", ip: "10.20.0.1" });
    const known = await requestSignInLink(t.db, { email: " Linked@Shop.LY", ip: "10.20.0.1" });
    expect(unknown).toEqual({ ok: true, link: null });
    expect(known).toMatchObject({ ok: true, link: { to: "linked@shop.ly", ip: "10.20.0.1" } });
    const token = known.ok && known.link ? known.link.token : "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Both requests are counted; only the account's has a token, and only as its SHA-256.
    expect((await rowsFor("nobody@shop.ly")).map((row) => row.tokenHash)).toEqual([null]);
    const [row] = await rowsFor("linked@shop.ly");
    expect(row!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(await t.db.select().from(signInLinks))).not.toContain(token);
    expect(await findSignInLink(t.db, token)).toEqual({ email: "linked@shop.ly" });
  });

  it(`e-mails an account at most ${LINK_LIMITS.email} links in 15 minutes, racing on two instances; more are answered alike and send nothing, and the links sent still work`, async () => {
    await quickAdmin(t.db, "flooded@shop.ly", "a-password-for-links");
    const instances = [t.db, createDb(second)];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        requestSignInLink(instances[i % 2]!, { email: "flooded@shop.ly", ip: `10.21.0.${i}` }),
      ),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    const links = answers.flatMap((answer) => (answer.ok && answer.link ? [answer.link] : []));
    expect(links).toHaveLength(LINK_LIMITS.email);
    expect(await findSignInLink(t.db, links[0]!.token)).toEqual({ email: "flooded@shop.ly" });
    // Once the window has passed, the account gets a link again.
    const later = await requestSignInLink(
      t.db,
      { email: "flooded@shop.ly", ip: "10.21.1.1" },
      { now: minutesLater(15.1) },
    );
    expect(later).toMatchObject({ ok: true, link: { to: "flooded@shop.ly" } });
  });

  it(`lets one address ask ${LINK_LIMITS.address} times in 15 minutes, whatever the e-mails, except for an e-mail that signed in from it`, async () => {
    await quickAdmin(t.db, "regular-linker@shop.ly", "a-password-for-links");
    expect(
      (
        await signIn(
          t.db,
          { email: "regular-linker@shop.ly", password: "a-password-for-links", ip: "10.22.0.1" },
          { gates: signInGates() },
        )
      ).ok,
    ).toBe(true);
    const start = new Date();
    for (let i = 0; i < LINK_LIMITS.address; i++)
      expect(
        await requestSignInLink(
          t.db,
          { email: `sprayed-${i}@shop.ly`, ip: "10.22.0.1" },
          { now: minutesLater(i, start) },
        ),
      ).toEqual({ ok: true, link: null });
    expect(
      await requestSignInLink(t.db, { email: "another@shop.ly", ip: "10.22.0.1" }, { now: minutesLater(10, start) }),
    ).toEqual({ ok: false, reason: "limited", retryAfterMinutes: 5 });
    // Another address is not held back by it, and the admin who signs in from this one still gets a link.
    expect(await requestSignInLink(t.db, { email: "another@shop.ly", ip: "10.22.0.2" })).toMatchObject({ ok: true });
    expect(
      await requestSignInLink(
        t.db,
        { email: "regular-linker@shop.ly", ip: "10.22.0.1" },
        { now: minutesLater(10, start) },
      ),
    ).toMatchObject({ ok: true, link: { to: "regular-linker@shop.ly" } });
  });
});

describe("signing in with a link", () => {
  it("works until it expires, 15 minutes after it was asked for", async () => {
    await quickAdmin(t.db, "expiring@shop.ly", "a-password-for-links");
    const asked = new Date();
    const answer = await requestSignInLink(t.db, { email: "expiring@shop.ly", ip: "10.23.0.1" }, { now: asked });
    const token = answer.ok && answer.link ? answer.link.token : "";
    const expired = new Date(asked.getTime() + LINK_TTL_MS + 1);
    expect(await findSignInLink(t.db, token, { now: minutesLater(14.9, asked) })).toEqual({
      email: "expiring@shop.ly",
    });
    expect(await findSignInLink(t.db, token, { now: expired })).toBeNull();
    expect(await signInWithLink(t.db, { token, ip: "10.23.0.1" }, { now: expired })).toEqual({
      ok: false,
      reason: "used_or_expired",
    });
  });

  it("refuses a token nobody was sent, and makes the address it was used from familiar to the account", async () => {
    expect(await signInWithLink(t.db, { token: "A".repeat(43), ip: "10.24.0.1" })).toEqual({
      ok: false,
      reason: "used_or_expired",
    });
    const id = await quickAdmin(t.db, "familiar-by-link@shop.ly", "a-password-for-links");
    const answer = await requestSignInLink(t.db, { email: "familiar-by-link@shop.ly", ip: "10.24.0.2" });
    const token = answer.ok && answer.link ? answer.link.token : "";
    expect(await isFamiliar(t.db, "familiar-by-link@shop.ly", "10.24.0.3", new Date())).toBe(false);
    expect(await signInWithLink(t.db, { token, ip: "10.24.0.3" })).toEqual({
      ok: true,
      admin: { id, email: "familiar-by-link@shop.ly" },
      sessionVersion: 0,
    });
    expect(await isFamiliar(t.db, "familiar-by-link@shop.ly", "10.24.0.3", new Date())).toBe(true);
    expect(await findSignInLink(t.db, token)).toBeNull();
  });
});
