import "server-only";
import { createHash, randomInt } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, notInArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { orderLookups, orders } from "../db/schema";
import { ORDER_ID } from "../ids";
import { libyanMobileE164, normaliseLibyanMobile } from "../phone";
import { NEVER_SHOWN } from "./store";

/**
 * Find my order by phone (`/orders/find`): a customer who placed an order from another browser, and has no e-mail
 * receipt, types the order number and the phone it was placed with; a one-time code is texted to the phone ON THE
 * ORDER (never to the number typed), and the code opens the order's page as its signed link shows it
 * (lib/orders/order-link.ts). Built as the back office's sign-in links are (lib/admin/sign-in-links.ts):
 *
 * - Every request is a row of `order_lookups`, counted under advisory locks, so the budgets
 *   ({@link LOOKUP_LIMITS} per {@link LOOKUP_WINDOW_MS}: per client address, per phone, per order number) hold across
 *   racing requests and server instances. All three count requests as asked, whether or not the order exists or the
 *   phone is its own, so a refusal says nothing about the order; and all three are checked before the orders table
 *   is read: a flood from one address never reaches it.
 * - "No such order" and "not its phone" are answered as a match is: the same result (a request id), the same row (its
 *   code hash null), the same queries and the same code drawn and hashed; the text goes out after the response.
 * - The code is 6 digits from `crypto.randomInt`; the database keeps only its SHA-256. It works once, for
 *   {@link LOOKUP_CODE_TTL_MS}, and not after {@link MAX_WRONG_CODES} wrong tries at that request: checking it is one
 *   conditional `UPDATE`, which only one request on any instance can win.
 *
 * A six-digit code's hash is no secret to whoever reads the database (a million tries); what keeps a code safe is
 * its ten minutes, its one use, its five tries and the request's tie to the browser that asked (the session holds
 * its id). Whoever reads the database reads the orders anyway.
 */

/** How long a texted code works. */
export const LOOKUP_CODE_TTL_MS = 10 * 60_000;
/** The window of the budgets. */
export const LOOKUP_WINDOW_MS = 60 * 60_000;
/**
 * Requests per {@link LOOKUP_WINDOW_MS}: from one client address (whatever it asks), with one phone (whichever
 * order), for one order number (whichever phone). A phone gets at most `phone` codes an hour, and a stranger who
 * knows an order number can hold its lookup back for an hour at most (its receipt's link still works).
 */
export const LOOKUP_LIMITS = { address: 20, phone: 5, order: 5 } as const;
/** Wrong codes a request takes before it is dead (ask again for a new code). */
export const MAX_WRONG_CODES = 5;

/** A code to text: to the order's phone (international), in the order's language. Only ever in the text message. */
export interface LookupCode {
  to: string;
  code: string;
  locale: string;
  expiresAt: Date;
}

export type LookupRequestResult =
  /**
   * Answered "if that order was placed with that phone, we texted a code to it"; `lookupId` names the request for
   * {@link verifyLookupCode} (keep it in the asking browser's session), `code` is what to text, if anything.
   */
  { ok: true; lookupId: number; code: LookupCode | null } | { ok: false; reason: "limited"; retryAfterMinutes: number };

/** The stored form of a code: hex SHA-256. */
const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");

/** Western digits for the Arabic-Indic and Persian ones a phone's keyboard may type (`٠١٢…`, `۰۱۲…`). */
const westernDigits = (text: string) =>
  text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) & 0xf));

/**
 * An order number as a customer may type it: any case, spaces or dashes inside, with or without the `ord_` prefix.
 * @returns the order id (`ord_` + 16 characters), or `null` when it cannot be one.
 */
export function parseOrderNumber(input: string): string | null {
  const compact = input.normalize("NFKC").toLowerCase().replace(/[\s-]/g, "");
  const id = compact.startsWith("ord_") ? compact : `ord_${compact}`;
  return ORDER_ID.test(id) ? id : null;
}

/**
 * A code as a customer may type it: spaces allowed, Arabic-Indic digits read as digits.
 * @returns the six digits, or `null` when it is not six digits.
 */
export function parseLookupCode(input: string): string | null {
  const digits = westernDigits(input).replace(/\s/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * Records a request for a code and, when the order exists and was placed with `phone`, draws one. Under advisory
 * locks on the address, the phone and the order number, so racing requests are counted one after the other.
 * @param request.orderId an order id ({@link parseOrderNumber}); request.phone a Libyan mobile as typed (normalised
 *   here; one that is not is never the order's); request.clientAddress the client's budget key (`clientIp`).
 * @returns `limited` when any budget is spent (the orders table is not read then), with the minutes until the
 *   longest of them frees up; else `ok`, the request's id, and the code to text when it matched. The caller answers
 *   both `ok`s alike and texts the code after its response.
 * @throws whatever the database throws.
 */
export async function requestLookupCode(
  db: Db,
  request: { orderId: string; phone: string; clientAddress: string },
  { now = new Date() }: { now?: Date } = {},
): Promise<LookupRequestResult> {
  const phone = normaliseLibyanMobile(request.phone) ?? request.phone.trim().slice(0, 40);
  const { orderId, clientAddress } = request;
  const since = new Date(now.getTime() - LOOKUP_WINDOW_MS);
  const budgets = [
    {
      key: `address:${clientAddress}`,
      column: orderLookups.clientAddress,
      value: clientAddress,
      limit: LOOKUP_LIMITS.address,
    },
    { key: `phone:${phone}`, column: orderLookups.phone, value: phone, limit: LOOKUP_LIMITS.phone },
    { key: `order:${orderId}`, column: orderLookups.orderId, value: orderId, limit: LOOKUP_LIMITS.order },
  ];
  return db.transaction(async (tx) => {
    for (const key of budgets.map((budget) => `order-lookup:${budget.key}`).sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    }
    let freeAt = 0;
    for (const { column, value, limit } of budgets) {
      // The requests in the window, newest first: the limit-th one says when the budget frees up.
      const recent = await tx
        .select({ at: orderLookups.requestedAt })
        .from(orderLookups)
        .where(and(eq(column, value), gt(orderLookups.requestedAt, since)))
        .orderBy(desc(orderLookups.requestedAt))
        .limit(limit);
      if (recent.length >= limit) freeAt = Math.max(freeAt, recent[limit - 1]!.at.getTime() + LOOKUP_WINDOW_MS);
    }
    if (freeAt > 0)
      return {
        ok: false,
        reason: "limited",
        retryAfterMinutes: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)),
      };

    const [order] = await tx
      .select({ phone: orders.phone, locale: orders.locale })
      .from(orders)
      .where(and(eq(orders.id, orderId), notInArray(orders.status, [...NEVER_SHOWN])));
    const to = order?.phone && normaliseLibyanMobile(order.phone) === phone ? libyanMobileE164(order.phone) : null;
    // Drawn and hashed for every request, so a match costs no more than a miss.
    const code = String(randomInt(1_000_000)).padStart(6, "0");
    const codeHash = hashCode(code);
    const expiresAt = new Date(now.getTime() + LOOKUP_CODE_TTL_MS);
    const [row] = await tx
      .insert(orderLookups)
      .values({ orderId, phone, clientAddress, codeHash: to ? codeHash : null, requestedAt: now, expiresAt })
      .returning({ id: orderLookups.id });
    return { ok: true, lookupId: row!.id, code: to ? { to, code, locale: order!.locale, expiresAt } : null };
  });
}

export type LookupVerifyResult =
  | { ok: true; orderId: string }
  /** Not the request's code: `triesLeft` more before it is dead. */
  | { ok: false; reason: "wrong_code"; triesLeft: number }
  /** The request is used, expired, dead of wrong codes, unknown, or texted nothing: ask for a new code. */
  | { ok: false; reason: "expired" };

/**
 * Checks a code against the request `lookupId`, in one conditional update: the right code marks it used (only one
 * racing check can), a wrong one counts against it; a request that sent nothing takes wrong codes like any other.
 * @param code six digits ({@link parseLookupCode}).
 * @returns the order the code opens, or why not.
 * @throws whatever the database throws.
 */
export async function verifyLookupCode(
  db: Db,
  { lookupId, code }: { lookupId: number; code: string },
  { now = new Date() }: { now?: Date } = {},
): Promise<LookupVerifyResult> {
  const right = sql`${orderLookups.codeHash} = ${hashCode(code)}`;
  const [row] = await db
    .update(orderLookups)
    .set({
      usedAt: sql`case when ${right} then ${now.toISOString()}::timestamptz end`,
      wrongCodes: sql`${orderLookups.wrongCodes} + case when ${right} then 0 else 1 end`,
    })
    .where(
      and(
        eq(orderLookups.id, lookupId),
        isNull(orderLookups.usedAt),
        gt(orderLookups.expiresAt, now),
        lt(orderLookups.wrongCodes, MAX_WRONG_CODES),
      ),
    )
    .returning({ orderId: orderLookups.orderId, usedAt: orderLookups.usedAt, wrongCodes: orderLookups.wrongCodes });
  if (!row) return { ok: false, reason: "expired" };
  if (row.usedAt) return { ok: true, orderId: row.orderId };
  const triesLeft = MAX_WRONG_CODES - row.wrongCodes;
  return triesLeft > 0 ? { ok: false, reason: "wrong_code", triesLeft } : { ok: false, reason: "expired" };
}
