import "server-only";
import { createHmac } from "node:crypto";
import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { Db, DbOrTx } from "../db/client";
import { getDb } from "../db/client";
import { adminUsers, signInAttempts, type AdminUserRow } from "../db/schema";
import { describeDbFailure, isDbUnavailable } from "../db/errors";
import { getEnv } from "../env";
import { logger } from "../log";
import { sealedCookie } from "../session";
import { decoyHash, verifyPassword } from "./passwords";

/**
 * The back office's accounts and sign-in. Admins live in the database with scrypt password hashes; a signed-in
 * admin carries a cookie of their own, separate from the shop's (`SameSite=Strict`, `HttpOnly`, `Secure` on https,
 * 8 hours, only sent to `/admin`). Every admin page, route and server action calls {@link requireAdmin} on the
 * server: the cookie alone proves nothing until the account behind it is read.
 */

/**
 * Failed sign-ins allowed within {@link LOCKOUT_WINDOW_MS}; the next attempt is refused without a password check.
 * Keyed so that nobody elsewhere can lock an admin out of the address they usually sign in from:
 * - `emailAtAddress`: one e-mail from one address. The tight limit on a guesser, wherever they are.
 * - `email`: one e-mail from all addresses together. Locks the e-mail only for addresses that are not familiar to it
 *   ({@link FAMILIAR_FOR_MS}), so a guesser with many addresses gets 20 tries in all, and the admin still gets in from
 *   their usual one.
 * - `address`: one address, whatever the e-mails. A throttle on trying many e-mails, in the tens because an office or
 *   a mobile network puts many people behind one address; it spares e-mails to which that address is familiar.
 */
export const SIGN_IN_LIMITS = { emailAtAddress: 5, email: 20, address: 50 } as const;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
/**
 * An address from which an e-mail signed in successfully within this long is familiar to it. Never "unknown" (see
 * {@link clientAddress}): when the shop cannot tell addresses apart, nobody's is known.
 */
export const FAMILIAR_FOR_MS = 30 * 24 * 60 * 60_000;
const SESSION_TTL_SECONDS = 8 * 60 * 60;

/**
 * Password checks of strangers (an e-mail at an address it has not signed in from lately) one server instance runs at
 * once. Each is scrypt: 128 MB and most of a second of a core, on one of Node's four pool threads (shared with file
 * reads and DNS lookups). One at a time leaves the shop the other cores and threads, whatever the instance's size, and
 * each check's turn stays taken for as long again after it ends (the answer is not delayed), so that strangers'
 * sign-ins take at most half a core: within a container's CPU quota, or beside other work on a shared machine, a hash
 * running back to back slows everything else. Measured on 2 busy cores (lib/admin/sign-in-load.test.ts), checkouts'
 * p95 beside 20 attackers was up to 1.5–3× the idle one with two checks at once, 1–2× with one, 1–1.6× with one and
 * the pause. A back office's real sign-ins are a few a day.
 */
const HASHES_AT_ONCE = 1;
/** Strangers' sign-ins that may wait for a turn at a password check; anyone beyond is told to try again in a moment. */
const SIGN_INS_WAITING = 2;
/**
 * Database statements of sign-ins one server instance runs at once: sign-ins never hold more than this many of the
 * pool's connections, however many arrive, so checkouts keep the rest.
 */
export const SIGN_IN_CONNECTIONS = 1;

/**
 * A counting semaphore that says no rather than letting a queue grow past `queue`: at most `size` holders at once and
 * `queue` more waiting for a turn, in order of arrival (`Infinity`: every caller waits its turn, none is turned away).
 */
export class Gate {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly queue: number,
  ) {}

  /**
   * Takes a turn, waiting for one if need be.
   * @returns the function that gives the turn back (call it exactly once), or `null` when the gate and its queue are
   *   full.
   */
  async enter(): Promise<(() => void) | null> {
    if (this.#active < this.size) this.#active++;
    else if (this.#waiting.length < this.queue) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else return null;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // A waiter takes the turn over as it is; the count only drops when nobody waits.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    };
  }

  /**
   * Runs `work` in a turn, waiting for one.
   * @throws RangeError when the queue is full (never for a gate whose queue is `Infinity`).
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.enter();
    if (!release) throw new RangeError("The gate and its queue are full.");
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/**
 * The turns one server instance gives sign-ins. Strangers (an e-mail at an address it has not signed in from within
 * {@link FAMILIAR_FOR_MS}) queue at `strangers`, which turns away whoever finds it full; an e-mail at a familiar
 * address has a lane of its own, `familiar`, which turns nobody away: its attempts are admitted by the database's
 * limits before they wait (at most {@link SIGN_IN_LIMITS}.emailAtAddress failures per e-mail and address in
 * {@link LOCKOUT_WINDOW_MS}), so only the owner of the account, or a few guesses claiming the owner's address, ever
 * queue there. Every sign-in statement takes a turn at `database`.
 */
export interface SignInGates {
  strangers: Gate;
  familiar: Gate;
  database: Gate;
}

/** A server instance's {@link SignInGates} (tests make one per simulated instance). */
export function signInGates(): SignInGates {
  return {
    strangers: new Gate(HASHES_AT_ONCE, SIGN_INS_WAITING),
    familiar: new Gate(1, Infinity),
    database: new Gate(SIGN_IN_CONNECTIONS, Infinity),
  };
}

/** This process's gates. */
const processGates = signInGates();

/** A signed-in admin. */
export interface Admin {
  id: number;
  email: string;
}

export type SignInResult =
  | { ok: true; admin: Admin; sessionVersion: number }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAfterMinutes: number }
  | { ok: false; reason: "busy" };

/**
 * Checks an e-mail and password within the {@link SIGN_IN_LIMITS}, counted in the database so they hold across server
 * instances. An unknown e-mail and a wrong password give the same answer, after the same work.
 *
 * First, one indexed lookup: has this e-mail signed in from this address within {@link FAMILIAR_FOR_MS}? A familiar
 * sign-in never waits behind strangers: its attempt is recorded (or refused by the limits) at once and its password
 * checked in the familiar lane ({@link SignInGates}). A stranger's sign-in takes a turn at the strangers' gate first
 * ({@link HASHES_AT_ONCE} checks at once, at most half the time; up to {@link SIGN_INS_WAITING} more wait; beyond
 * that the answer is `busy`, without recording anything), then is recorded.
 *
 * An attempt is recorded as a failure before its password is checked, in a short transaction that holds advisory
 * locks on the e-mail and the address, so racing attempts are counted one after the other and a process that dies
 * mid-check has still spent one. The password is checked after that transaction, holding no connection: a sign-in
 * holds one of the pool's connections only for a few milliseconds at a time, never for the hash, and an instance's
 * sign-ins hold at most {@link SIGN_IN_CONNECTIONS} at once.
 * @param options.now the time of the attempt (tests move it); options.gates the process's unless given (tests give
 *   each simulated server instance its own).
 * @throws whatever the database throws; the attempt then counts if it was recorded.
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string; ip: string },
  { now = new Date(), gates = processGates }: { now?: Date; gates?: SignInGates } = {},
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const { ip } = input;
  if (await gates.database.run(() => isFamiliar(db, email, ip, now))) {
    const attempt = await gates.database.run(() => recordAttempt(db, email, ip, now));
    if ("locked" in attempt) return { ok: false, reason: "locked", retryAfterMinutes: attempt.locked };
    return gates.familiar.run(() => checkPassword(db, gates, attempt, input.password));
  }
  const release = await gates.strangers.enter();
  if (!release) return { ok: false, reason: "busy" };
  let hashMs = 0; // how long the password check took: its turn stays taken as long again
  try {
    const attempt = await gates.database.run(() => recordAttempt(db, email, ip, now));
    if ("locked" in attempt) return { ok: false, reason: "locked", retryAfterMinutes: attempt.locked };
    const hashStarted = performance.now();
    try {
      return await checkPassword(db, gates, attempt, input.password);
    } finally {
      hashMs = performance.now() - hashStarted;
    }
  } finally {
    if (hashMs > 0) setTimeout(release, hashMs).unref();
    else release();
  }
}

/**
 * Whether `email` signed in from `ip` within {@link FAMILIAR_FOR_MS}: one lookup on the index of successes. Never for
 * the address "unknown" (see {@link clientAddress}): when the shop cannot tell addresses apart, nobody's is known.
 */
export async function isFamiliar(db: DbOrTx, email: string, ip: string, now: Date): Promise<boolean> {
  if (ip === "unknown") return false;
  const [row] = await db
    .select({ id: signInAttempts.id })
    .from(signInAttempts)
    .where(
      and(
        eq(signInAttempts.email, email),
        eq(signInAttempts.ip, ip),
        eq(signInAttempts.succeeded, true),
        gt(signInAttempts.at, new Date(now.getTime() - FAMILIAR_FOR_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Checks the password of a recorded attempt (against a decoy for an unknown e-mail) and marks it if it matched. */
async function checkPassword(
  db: Db,
  gates: SignInGates,
  attempt: { id: number; user: AdminUserRow | undefined },
  password: string,
): Promise<SignInResult> {
  const { user } = attempt;
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !matches) return { ok: false, reason: "invalid" };
  await gates.database.run(() =>
    db.update(signInAttempts).set({ succeeded: true }).where(eq(signInAttempts.id, attempt.id)),
  );
  // The version read with the hash that was checked: a reset or a sign-out meanwhile leaves this session stale.
  return { ok: true, admin: { id: user.id, email: user.email }, sessionVersion: user.sessionVersion };
}

/**
 * Decides, under the advisory locks of the e-mail and the address, whether this attempt may check a password; if
 * so, records it as failed (until the check says otherwise) and reads the account.
 * @returns the minutes to wait when locked; else the attempt's id and the account (`undefined` for an unknown e-mail).
 */
async function recordAttempt(
  db: Db,
  email: string,
  ip: string,
  now: Date,
): Promise<{ locked: number } | { id: number; user: AdminUserRow | undefined }> {
  return db.transaction(async (tx) => {
    for (const key of [`sign-in:email:${email}`, `sign-in:ip:${ip}`].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    }
    const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
    const familiarSince = new Date(now.getTime() - FAMILIAR_FOR_MS);
    // For each limit, the failure that fills it (the limit-th newest in the window): while it is in the window the
    // limit is reached, and it is free once that failure leaves.
    const failures = (where: SQL, limit: number) =>
      sql`(select ${signInAttempts.at} from ${signInAttempts} where ${where} and not ${signInAttempts.succeeded} and ${signInAttempts.at} > ${since}
           order by ${signInAttempts.at} desc offset ${limit - 1} limit 1)`;
    const { rows } = await tx.execute<{
      email_at_address: string | null;
      email: string | null;
      address: string | null;
      familiar: boolean;
    }>(sql`select
      ${failures(and(eq(signInAttempts.email, email), eq(signInAttempts.ip, ip))!, SIGN_IN_LIMITS.emailAtAddress)} as email_at_address,
      ${failures(eq(signInAttempts.email, email), SIGN_IN_LIMITS.email)} as email,
      ${failures(eq(signInAttempts.ip, ip), SIGN_IN_LIMITS.address)} as address,
      exists (select from ${signInAttempts} where ${signInAttempts.email} = ${email} and ${signInAttempts.ip} = ${ip}
              and ${signInAttempts.succeeded} and ${signInAttempts.at} > ${familiarSince}) as familiar`);
    const full = rows[0]!;
    const familiar = ip !== "unknown" && full.familiar;
    const filledAt = [full.email_at_address, ...(familiar ? [] : [full.email, full.address])].filter(
      (at) => at !== null,
    );
    if (filledAt.length > 0) {
      const freeAt = Math.max(...filledAt.map((at) => new Date(at).getTime())) + LOCKOUT_WINDOW_MS;
      return { locked: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)) };
    }
    const [attempt] = await tx
      .insert(signInAttempts)
      .values({ email, ip, succeeded: false, at: now })
      .returning({ id: signInAttempts.id });
    const [user] = await tx.select().from(adminUsers).where(eq(adminUsers.email, email));
    return { id: attempt!.id, user };
  });
}

interface AdminSessionData {
  adminId?: number;
  /** The account's sessionVersion when the session began: a sign-out or a password reset since then ends it. */
  sessionVersion?: number;
}

const ADMIN_COOKIE = "admin_session";

/**
 * The admin cookie's settings. Its own key, derived from SESSION_SECRET, so a shop session cookie can never be
 * unsealed as an admin one. `SameSite=Strict`: unlike the shop's cookie, nothing legitimate reaches the back office
 * from another site, so the browser never sends it along with a cross-site request.
 */
function adminSessionOptions(): SessionOptions {
  const password = createHmac("sha256", getEnv().SESSION_SECRET).update("admin-session").digest("hex");
  return sealedCookie(ADMIN_COOKIE, password, SESSION_TTL_SECONDS, { sameSite: "strict", path: "/admin" });
}

async function adminSession() {
  // Outside the try: while Next.js renders ahead of a request, reading the cookies is how it learns not to.
  const store = await cookies();
  try {
    return await getIronSession<AdminSessionData>(store, adminSessionOptions());
  } catch {
    // A cookie that cannot be unsealed is no session; it is replaced at the next sign-in.
    return getIronSession<AdminSessionData>({ get: () => undefined, set: () => {} }, adminSessionOptions());
  }
}

/**
 * Starts an admin session in the response (server actions only: they can set cookies).
 * @param sessionVersion the account's, from {@link signIn}: the cookie is good until it changes.
 */
export async function startAdminSession(admin: Admin, sessionVersion: number): Promise<void> {
  const session = await adminSession();
  session.adminId = admin.id;
  session.sessionVersion = sessionVersion;
  await session.save();
}

/**
 * Signs the admin of this request out: on the server first, by bumping the account's session version, so that every
 * copy of the cookie, and the admin's sessions in other browsers, are refused from now on; then, whatever happened
 * there, the cookie itself. A cookie that is no longer good bumps nothing (whoever holds an old copy cannot sign the
 * admin out at will), and there is nothing left of it elsewhere to end.
 * @returns `everywhere`: whether no other copy of this session is left (`false` when the database could not be
 *   reached: this browser is signed out, the other devices are not, and the failure is logged). Never throws for the
 *   database.
 */
export async function endAdminSession(db: Db = getDb()): Promise<{ everywhere: boolean }> {
  const session = await adminSession();
  let everywhere = true;
  if (typeof session.adminId === "number" && typeof session.sessionVersion === "number") {
    try {
      await endSessions(db, session.adminId, session.sessionVersion);
    } catch (error) {
      logger.error({ event: "admin_sign_out_not_recorded", ...describeDbFailure(error) });
      everywhere = false;
    }
  }
  session.destroy();
  return { everywhere };
}

/**
 * Ends an admin's sessions of `version` (every cookie carrying it) by bumping the account's session version.
 * @returns whether it did: `false` when the version was already not the account's current one.
 */
export async function endSessions(db: Db, adminId: number, version: number): Promise<boolean> {
  const bumped = await db
    .update(adminUsers)
    .set({ sessionVersion: sql`${adminUsers.sessionVersion} + 1`, updatedAt: new Date() })
    .where(and(eq(adminUsers.id, adminId), eq(adminUsers.sessionVersion, version)))
    .returning({ id: adminUsers.id });
  return bumped.length > 0;
}

/**
 * The admin of this request, or `null`: the cookie's account must exist and still have the session version the
 * cookie carries (no sign-out and no password reset since it was issued).
 */
export async function currentAdmin(db?: Db): Promise<Admin | null> {
  const session = await adminSession();
  if (typeof session.adminId !== "number" || typeof session.sessionVersion !== "number") return null;
  const [user] = await (db ?? getDb()).select().from(adminUsers).where(eq(adminUsers.id, session.adminId));
  if (!user || user.sessionVersion !== session.sessionVersion) return null;
  return { id: user.id, email: user.email };
}

/**
 * The admin of this request; anyone else is sent to the sign-in page (a redirect from a page, a route handler or a
 * server action alike), so nothing after this line runs for them. While the database cannot be reached, nobody can be
 * told apart: the request goes to app/admin/unavailable ({@link orUnavailable}).
 */
export async function requireAdmin(): Promise<Admin> {
  const admin = await orUnavailable(() => currentAdmin());
  if (!admin) redirect("/admin/sign-in");
  return admin;
}

/**
 * Runs a back-office step that needs the database; when the database cannot be reached or used just now (refused,
 * dropped, timed out: lib/db/errors.ts, `isDbUnavailable`), logs it and sends the request to app/admin/unavailable, which says that nothing sent was saved,
 * instead of answering with a bare 500. Other errors are thrown on.
 * @returns what `step` gave.
 */
export async function orUnavailable<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isDbUnavailable(error)) throw error;
    logger.error({ event: "admin_request_unavailable", ...describeDbFailure(error) });
    redirect("/admin/unavailable");
  }
}
