import "server-only";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { orders, type OrderStatus } from "../db/schema";
import { settle, type RedirectType } from "./settle";

/** What a redirect back did, for the order page to explain. */
export type ReturnOutcome = "reported" | "cancelled" | "already_settled" | "token_mismatch" | "invalid_redirect";

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
 * The customer's browser coming back from the payment page (docs/payment-service.md, "Return and cancel redirects") to
 * the return URL (`success`) or the cancel URL (`cancel`). The move is bound to the payment token of an order of
 * **this** browser session; a token of another session, a `type` that does not belong to the URL, or a replay changes
 * nothing. A success only records that the customer reports paying: the verified webhook confirms it.
 * @param expected the type the URL stands for. @param params the redirect's query string.
 * @returns the order the redirect was about (if any), its status now, and what happened.
 */
export async function returnFromPaymentPage(
  db: Db,
  sessionId: string,
  expected: RedirectType,
  params: URLSearchParams,
): Promise<{ orderId?: string; status?: OrderStatus; outcome: ReturnOutcome }> {
  const query = parseReturnQuery(params);
  if (!query || query.type !== expected) return { outcome: "invalid_redirect" };
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentToken, query.token), eq(orders.sessionId, sessionId)));
  if (!order) return { outcome: "token_mismatch" };
  const settlement = await settle(db, order.id, { kind: "customer_returned", type: query.type });
  if (!settlement) return { outcome: "token_mismatch" };
  // A success that finds the order already paid (the webhook came first) is the customer's own return, not a replay.
  const confirmedFirst = query.type === "success" && settlement.to === "paid" && settlement.from === "paid";
  const outcome = confirmedFirst
    ? "reported"
    : !settlement.changed
      ? "already_settled"
      : settlement.to === "cancelled"
        ? "cancelled"
        : "reported";
  return { orderId: order.id, status: settlement.to, outcome };
}
