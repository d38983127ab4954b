import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client";
import { sendSignInLinkEmail } from "../email/sign-in-link";
import { quickAdmin } from "../../testing/admins";
import { setUpTestDatabase } from "../../testing/db";
import { startTestSmtpServer, type TestSmtpServer } from "../../testing/smtp";
import { SIGN_IN_LIMITS, signIn, signInGates, type SignInGates } from "./auth";
import { requestSignInLink, signInWithLink } from "./sign-in-links";

/**
 * The owner of the back office always gets in, whatever strangers do: two server instances (pools and gates of their
 * own) on one database, as the shop runs on serverless hosts, a real SMTP server, and strangers' password checks at
 * full cost (scrypt, 128 MB, most of a second of CPU each).
 */

const t = setUpTestDatabase();
let second: Pool;
let smtp: TestSmtpServer;
let instances: { db: Db; gates: SignInGates }[];
beforeAll(async () => {
  second = new Pool({ connectionString: t.url, max: 5 });
  instances = [
    { db: t.db, gates: signInGates() },
    { db: createDb(second), gates: signInGates() },
  ];
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await second?.end();
  await smtp?.stop();
});

const OWNER = { email: "owner@shop.ly", password: "the-owner-password" };
/** The address the owner signs in from, day after day. */
const USUAL = "203.0.113.7";

/**
 * Twenty strangers signing in over and over with made-up e-mails, each at a full-cost password check, spread over both
 * instances (a moment's pause after a "busy"), until `stop()`.
 */
function anonymousLoops(loops = 20) {
  let running = true;
  const seen = { checked: 0, busy: 0 };
  let attempt = 0;
  const done = Promise.all(
    Array.from({ length: loops }, async () => {
      while (running) {
        const n = attempt++;
        const { db, gates } = instances[n % 2]!;
        const result = await signIn(
          db,
          {
            email: `guess-${n}-${crypto.randomUUID()}@attacker.example`,
            password: "password123",
            ip: `198.18.${(n >> 8) & 255}.${n & 255}`,
          },
          { gates },
        );
        if (!result.ok && result.reason === "busy") {
          seen.busy++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        } else seen.checked++;
      }
    }),
  );
  return {
    seen,
    async stop() {
      running = false;
      await done;
    },
  };
}

describe("the owner of the back office", () => {
  it("gets in from the usual address 9 times in 10 within 5 s under 20 anonymous sign-in loops and 30 aimed failures", async () => {
    await quickAdmin(t.db, OWNER.email, OWNER.password);
    expect((await signIn(t.db, { ...OWNER, ip: USUAL }, { gates: signInGates() })).ok).toBe(true);

    const loops = anonymousLoops();
    const aimed: Promise<string>[] = [];
    /** Ten guesses at the owner's password from ten addresses at once, each on an instance of its own. */
    const aimTen = () => {
      for (let i = 0; i < 10; i++) {
        const n = aimed.length;
        aimed.push(
          signIn(
            instances[n % 2]!.db,
            { email: OWNER.email, password: `guess-${n}`, ip: `192.0.2.${n}` },
            { gates: signInGates() },
          ).then((result) => (result.ok ? "ok" : result.reason)),
        );
      }
    };
    const tries: { ok: boolean; ms: number }[] = [];
    try {
      // The strangers' gates are full: passwords are being checked and sign-ins turned away.
      await expect.poll(() => loops.seen.checked >= 2 && loops.seen.busy >= 20, { timeout: 30_000 }).toBe(true);
      for (let i = 0; i < 10; i++) {
        if (i % 3 === 0 && aimed.length < 30) aimTen();
        const started = performance.now();
        const result = await signIn(instances[i % 2]!.db, { ...OWNER, ip: USUAL }, { gates: instances[i % 2]!.gates });
        tries.push({ ok: result.ok, ms: Math.round(performance.now() - started) });
      }
    } finally {
      await loops.stop();
    }
    const aimedResults = await Promise.all(aimed);
    console.info(
      `the owner's 10 sign-ins: ${tries.map((x) => `${x.ok ? "in" : "out"} ${x.ms} ms`).join(", ")}; ` +
        `strangers meanwhile: ${loops.seen.checked} checked, ${loops.seen.busy} told busy`,
    );
    expect(tries.filter((x) => x.ok && x.ms <= 5_000).length).toBeGreaterThanOrEqual(9);

    // The aimed guesses all failed, and filled the e-mail's limit: the owner's password now waits at any address but
    // the usual one, so the owner got in despite the lock-out, not for want of one.
    expect(aimedResults).toHaveLength(30);
    expect(aimedResults.every((r) => r === "invalid" || r === "locked")).toBe(true);
    expect(aimedResults.filter((r) => r === "invalid").length).toBeLessThanOrEqual(SIGN_IN_LIMITS.email);
    expect(await signIn(t.db, { ...OWNER, ip: "198.51.100.20" }, { gates: signInGates() })).toMatchObject({
      ok: false,
      reason: "locked",
    });
  }, 120_000);

  it("locked out everywhere without a trusted proxy, gets in once with the link e-mailed to them, never twice", async () => {
    const owner = { email: "locked-owner@shop.ly", password: "the-locked-owner-password" };
    await quickAdmin(t.db, owner.email, owner.password);
    expect((await signIn(t.db, { ...owner, ip: USUAL }, { gates: signInGates() })).ok).toBe(true);
    // With no trusted proxy a client may claim any address: five failures claiming the owner's usual one, twenty from
    // others. Now the right password is refused everywhere.
    for (let i = 0; i < SIGN_IN_LIMITS.emailAtAddress; i++)
      await signIn(t.db, { ...owner, password: `guess-${i}`, ip: USUAL }, { gates: signInGates() });
    for (let i = 0; i < SIGN_IN_LIMITS.email; i++)
      await signIn(t.db, { ...owner, password: `guess-${i}`, ip: `192.0.2.${100 + i}` }, { gates: signInGates() });
    for (const ip of [USUAL, "198.51.100.30"])
      expect(await signIn(t.db, { ...owner, ip }, { gates: signInGates() })).toMatchObject({
        ok: false,
        reason: "locked",
      });

    // The owner asks for a link, from wherever they are; it arrives in their mailbox.
    const asked = await requestSignInLink(t.db, { email: "Locked-Owner@shop.ly", ip: "198.51.100.30" });
    if (!asked.ok || !asked.link) throw new Error(`no link: ${JSON.stringify(asked)}`);
    await sendSignInLinkEmail(
      { smtpUrl: smtp.url, from: "Medina Market <shop@shop.ly>", siteUrl: "https://shop.example.ly" },
      asked.link,
      "en",
    );
    const [mail] = smtp.messages.filter((m) => m.to && JSON.stringify(m.to).includes(owner.email));
    const url = new URL(/https:\/\/shop\.example\.ly\/admin\/sign-in\/link\?token=[\w-]+/.exec(mail!.text ?? "")![0]);
    const token = url.searchParams.get("token")!;

    // Opened on both instances at once, ten times over: one sign-in.
    const uses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signInWithLink(instances[i % 2]!.db, { token, ip: "198.51.100.30" })),
    );
    expect(uses.filter((use) => use.ok)).toHaveLength(1);
    expect(uses.filter((use) => use.ok)[0]).toMatchObject({ admin: { email: owner.email } });
    // And never again.
    expect(await signInWithLink(t.db, { token, ip: "198.51.100.30" })).toEqual({
      ok: false,
      reason: "used_or_expired",
    });
  });
});
