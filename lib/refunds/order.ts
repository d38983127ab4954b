import "server-only";
import { eq, sql } from "drizzle-orm";
import { lockOrder } from "../orders/events";
import { pendingRefundOf } from "../orders/store";
import type { Tx } from "../db/client";
import { orderLines, type FulfilmentStep, type OrderStatus } from "../db/schema";
import type { AfterSaleOrder } from "./rules";

/**
 * What the room's moves share: the order read with its row locked, its lines with what was refunded and returned of
 * each, and the results every move answers with.
 */

/** An order as the moves read it, its row locked `for update`: the rules' fields, its e-mail and its total. */
export type LockedOrder = AfterSaleOrder & { id: string; email: string | null };

/**
 * Reads the order and locks its row for the rest of `tx` (lib/orders/events.ts): every move on one order waits for the
 * one before it, so two tabs or two server instances make each move once. The pending refunds are summed after the
 * lock, so they are the committed ones.
 * @returns the order, or undefined when there is none.
 */
export async function lockAfterSaleOrder(tx: Tx, id: string): Promise<LockedOrder | undefined> {
  const order = await lockOrder(tx, id);
  if (!order) return undefined;
  return { ...order, pendingRefundMinor: await pendingRefundOf(tx, id) };
}

/** One of an order's lines, by its `position`, and how many of its units were refunded and returned so far. */
export interface LineSoFar {
  position: number;
  productId: number | null;
  quantity: number;
  refunded: number;
  returned: number;
}

/** The order's lines with what was refunded and returned of each (all refunds and returns together). */
export async function linesSoFar(tx: Tx, orderId: string): Promise<Map<number, LineSoFar>> {
  const rows = await tx
    .select({
      position: orderLines.position,
      productId: orderLines.productId,
      quantity: orderLines.quantity,
      // Written out with their tables' names: inside a select's field, Drizzle names a column without its table.
      refunded: sql<number>`coalesce((select sum(refund_lines.quantity) from refund_lines where refund_lines.order_id = order_lines.order_id and refund_lines.position = order_lines.position), 0)::int`,
      returned: sql<number>`coalesce((select sum(return_lines.quantity) from return_lines where return_lines.order_id = order_lines.order_id and return_lines.position = order_lines.position), 0)::int`,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  return new Map(rows.map((row) => [row.position, row]));
}

/**
 * A line of a request that cannot be: the order has no line at `position` (`leftQuantity` 0), or it asks for more
 * units than are left on it (`leftQuantity`: how many may still be refunded, or returned).
 */
export interface LineProblem {
  position: number;
  leftQuantity: number;
}

/**
 * How a move ended, beside its own `done`:
 * - `already`: made before — the same form posted again (its request key), another tab, another instance
 * - `not_allowed`: not from where the order stands now (which it says), or for an order that received no money
 * - `over_limit`: the amount is more than is left to refund (`leftMinor`)
 * - `bad_lines`: lines not on the order, or more units than are left on them
 * - `not_found`: no such order (or refund)
 */
export type NotDone =
  | { result: "already" }
  | { result: "not_allowed"; status: OrderStatus; fulfilment: FulfilmentStep | null }
  | { result: "over_limit"; leftMinor: number }
  | { result: "bad_lines"; lines: LineProblem[] }
  | { result: "not_found" };

/** The `not_allowed` answer for `order`. */
export const notAllowed = (order: LockedOrder): Extract<NotDone, { result: "not_allowed" }> => ({
  result: "not_allowed",
  status: order.status,
  fulfilment: order.fulfilment,
});

/**
 * The requested lines checked against the order's: each must be one of its lines, asking for no more than `left` of
 * it. Positions asked twice are refused as a programming error.
 * @throws RangeError for a quantity that is not a positive integer, or a position asked twice.
 */
export function lineProblems(
  asked: readonly { position: number; quantity: number }[],
  lines: Map<number, LineSoFar>,
  left: (line: LineSoFar) => number,
): LineProblem[] {
  const seen = new Set<number>();
  const problems: LineProblem[] = [];
  for (const { position, quantity } of asked) {
    if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError(`line ${position}: quantity ${quantity}`);
    if (seen.has(position)) throw new RangeError(`line ${position} asked twice`);
    seen.add(position);
    const line = lines.get(position);
    const leftQuantity = line ? left(line) : 0;
    if (!line || quantity > leftQuantity) problems.push({ position, leftQuantity });
  }
  return problems;
}

/** The note of an event, when there is one. */
export const noted = (note: string | undefined) => (note ? { note } : {});
