import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, count, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { adminUsers, signInAttempts, signInLinks } from "../db/schema";
import { isFamiliar, type Admin } from "./auth";

/**
 * One-time sign-in links: the way into the back office that no attacker can block. Anyone may make the password
 * sign-in refuse an account for a while (wrong guesses lock it, a flood of sign-ins keeps the password checks busy),
 * so an admin may instead ask for a link, e-mailed to the account's address, that signs them in once.
 *
 * - The token is 32 random bytes; the database keeps only its SHA-256, so a copy of the database signs nobody in.
 * - It works once, on any number of server instances: using it is one conditional `UPDATE … WHERE used_at IS NULL AND
 *   expires_at > now`, which only one request can win. It expires after {@link LINK_TTL_MS}.
 * - Asking never says whether the e-mail has an account: the answer, the work and the time taken are the same (the
 *   e-mail is sent after the response).
 * - Asking is limited in the database: an account gets at most {@link LINK_LIMITS}.email links in
 *   {@link LINK_TTL_MS} (more requests are answered the same and send nothing, so a stranger cannot flood the
 *   admin's inbox; the links already sent still work, so nobody can keep the admin from having one), and one address
 *   may ask {@link LINK_LIMITS}.address times in that window, except for e-mails that signed in from it lately.
 * - Whoever reads the admin's mailbox can sign in with it: a link is as safe as the mailbox it goes to.
 */

/** How long a link works, and the window of the request limits. */
export const LINK_TTL_MS = 15 * 60_000;
/** Links e-mailed to one account, and requests from one address, per {@link LINK_TTL_MS}. */
export const LINK_LIMITS = { email: 3, address: 10 } as const;

/** A link to e-mail: to whom, the token (only ever in the e-mail), when and from where it was asked for, until when it works. */
export interface SignInLink {
  to: string;
  token: string;
  ip: string;
  requestedAt: Date;
  expiresAt: Date;
}

export type SignInLinkRequestResult =
  /** Answered "if the address has an account, a link is on its way"; `link` is what to e-mail, if anything. */
  { ok: true; link: SignInLink | null } | { ok: false; reason: "limited"; retryAfterMinutes: number };

/** The stored form of a token: hex SHA-256. */
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Records a request for a sign-in link and, for an account within its limit, makes one. Under advisory locks on the
 * e-mail and the address, so racing requests are counted one after the other on every instance.
 * @param request.email as typed (any case); request.ip the client's address (`clientIp`).
 * @returns `limited` when the address has asked too often (whatever the e-mail); else `ok`, with the link to e-mail
 *   when the e-mail has an account that has not had {@link LINK_LIMITS}.email links lately, `null` otherwise. The
 *   caller answers both `ok`s alike and sends the link after its response.
 * @throws whatever the database throws.
 */
export async function requestSignInLink(
  db: Db,
  request: { email: string; ip: string },
  { now = new Date() }: { now?: Date } = {},
): Promise<SignInLinkRequestResult> {
  const email = request.email.trim().toLowerCase();
  const { ip } = request;
  const since = new Date(now.getTime() - LINK_TTL_MS);
  return db.transaction(async (tx) => {
    for (const key of [`sign-in-link:email:${email}`, `sign-in-link:ip:${ip}`].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    }
    // The address's requests in the window, oldest first: the one that fills the limit says when it frees up.
    const fromAddress = await tx
      .select({ at: signInLinks.requestedAt })
      .from(signInLinks)
      .where(and(eq(signInLinks.ip, ip), gt(signInLinks.requestedAt, since)))
      .orderBy(sql`${signInLinks.requestedAt} desc`)
      .limit(LINK_LIMITS.address);
    if (fromAddress.length >= LINK_LIMITS.address && !(await isFamiliar(tx, email, ip, now))) {
      const freeAt = fromAddress[fromAddress.length - 1]!.at.getTime() + LINK_TTL_MS;
      return {
        ok: false,
        reason: "limited",
        retryAfterMinutes: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)),
      };
    }
    const [admin] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.email, email));
    const [sent] = await tx
      .select({ links: count() })
      .from(signInLinks)
      .where(and(eq(signInLinks.email, email), isNotNull(signInLinks.tokenHash), gt(signInLinks.requestedAt, since)));
    const token = admin && sent!.links < LINK_LIMITS.email ? randomBytes(32).toString("base64url") : null;
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
    await tx.insert(signInLinks).values({
      email,
      ip,
      adminId: token ? admin!.id : null,
      tokenHash: token ? hashToken(token) : null,
      requestedAt: now,
      expiresAt,
    });
    return { ok: true, link: token ? { to: email, token, ip, requestedAt: now, expiresAt } : null };
  });
}

/**
 * The account a link would sign in to, if it still can (unused, unexpired): what the link's page shows before the
 * admin presses "Sign in". Reads only.
 * @returns the admin's e-mail, or `null` for a link that is unknown, used or expired.
 */
export async function findSignInLink(
  db: Db,
  token: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<{ email: string } | null> {
  const [row] = await db
    .select({ email: adminUsers.email })
    .from(signInLinks)
    .innerJoin(adminUsers, eq(adminUsers.id, signInLinks.adminId))
    .where(
      and(eq(signInLinks.tokenHash, hashToken(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)),
    );
  return row ?? null;
}

/**
 * Signs in with a link: marks it used in one conditional update, which only one request on any instance can win, and
 * records a successful sign-in from `ip` (the address becomes familiar to the account, as after a password).
 * @returns the admin and their session version (for `startAdminSession`), or `used_or_expired` for a link that is
 *   unknown, already used or expired.
 * @throws whatever the database throws; the link is then unused still.
 */
export async function signInWithLink(
  db: Db,
  { token, ip }: { token: string; ip: string },
  { now = new Date() }: { now?: Date } = {},
): Promise<{ ok: true; admin: Admin; sessionVersion: number } | { ok: false; reason: "used_or_expired" }> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(signInLinks)
      .set({ usedAt: now, usedIp: ip })
      .where(
        and(eq(signInLinks.tokenHash, hashToken(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)),
      )
      .returning({ adminId: signInLinks.adminId });
    if (!used?.adminId) return { ok: false, reason: "used_or_expired" };
    const [user] = await tx.select().from(adminUsers).where(eq(adminUsers.id, used.adminId));
    if (!user) return { ok: false, reason: "used_or_expired" };
    await tx.insert(signInAttempts).values({ email: user.email, ip, succeeded: true, at: now });
    return { ok: true, admin: { id: user.id, email: user.email }, sessionVersion: user.sessionVersion };
  });
}
