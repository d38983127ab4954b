import "server-only";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { orderEvents, orders, type OrderStatus } from "../db/schema";

/**
 * Settlement: how an order's status moves once its payment exists. Every move goes through {@link settle}, which
 * applies the table below in one transaction (the order row locked) and writes the move as an event, so it happens
 * once even when two requests race. Anything the table does not list changes nothing.
 *
 * | status   | customer returns with `success` | customer returns with `cancel` |
 * |----------|---------------------------------|--------------------------------|
 * | pending  | → paid                          | → cancelled                    |
 * | (other)  | no change                       | no change                      |
 */
export type SettlementInput = { kind: "customer_returned"; type: RedirectType };

/** The spec's redirect types (§4.3): `success` at the return URL, `cancel` at the cancel URL. */
export type RedirectType = "success" | "cancel";

const TRANSITIONS: Partial<Record<OrderStatus, (input: SettlementInput) => OrderStatus | undefined>> = {
  pending: (input) => (input.type === "success" ? "paid" : "cancelled"),
};

/** What {@link settle} did: the status before and after (equal when nothing changed). */
export interface Settlement {
  from: OrderStatus;
  to: OrderStatus;
  changed: boolean;
}

/**
 * Applies one settlement input to an order, once: locks the row, looks the move up in the table, writes the new
 * status and an event describing the input and the move (also when nothing moved).
 * @returns the move, or `undefined` when there is no such order.
 */
export async function settle(db: Db, orderId: string, input: SettlementInput): Promise<Settlement | undefined> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return undefined;
    const from = order.status;
    const to = TRANSITIONS[from]?.(input) ?? from;
    if (to !== from) await tx.update(orders).set({ status: to, updatedAt: new Date() }).where(eq(orders.id, orderId));
    await tx.insert(orderEvents).values({ orderId, type: input.kind, data: { returnType: input.type, from, to } });
    return { from, to, changed: to !== from };
  });
}

/** What a redirect back did, for the order page to explain. Only `paid` and `cancelled` change anything. */
export type ReturnOutcome = "paid" | "cancelled" | "already_settled" | "token_mismatch" | "invalid_redirect";

const returnQuerySchema = z.object({
  type: z.enum(["success", "cancel"]),
  token: z.string().min(1).max(512),
});

/**
 * Reads `type` and `token` from a redirect's query string. The platform may add parameters of its own; those are
 * ignored. A parameter given twice with different values is refused rather than guessed at.
 * @returns the pair, or `null` when missing, repeated, unknown (`type=error` included) or too long.
 */
export function parseReturnQuery(params: URLSearchParams): { type: RedirectType; token: string } | null {
  const single = (name: string) => {
    const values = params.getAll(name);
    return values.length > 0 && values.every((value) => value === values[0]) ? values[0] : undefined;
  };
  const parsed = returnQuerySchema.safeParse({ type: single("type"), token: single("token") });
  return parsed.success ? parsed.data : null;
}

/**
 * The customer's browser coming back from the payment page (spec §4.3) to the return URL (`success`) or the
 * cancel URL (`cancel`). The move is bound to the payment token of an order of **this** browser session; a token
 * of another session, a `type` that does not belong to the URL, or a replay changes nothing. The redirect is not
 * proof of payment (anyone can type the URL): see the README before shipping goods.
 * @param expected the type the URL stands for. @param params the redirect's query string.
 * @returns the order the redirect was about (if any) and what happened.
 */
export async function returnFromPaymentPage(
  db: Db,
  sessionId: string,
  expected: RedirectType,
  params: URLSearchParams,
): Promise<{ orderId?: string; outcome: ReturnOutcome }> {
  const query = parseReturnQuery(params);
  if (!query || query.type !== expected) return { outcome: "invalid_redirect" };
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentToken, query.token), eq(orders.sessionId, sessionId)));
  if (!order) return { outcome: "token_mismatch" };
  const settlement = await settle(db, order.id, { kind: "customer_returned", type: query.type });
  if (!settlement?.changed) return { orderId: order.id, outcome: "already_settled" };
  return { orderId: order.id, outcome: settlement.to === "paid" ? "paid" : "cancelled" };
}
