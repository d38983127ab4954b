import "server-only";
import { eq } from "drizzle-orm";
import { putBack, type StockLine } from "../catalog/stock";
import type { Db } from "../db/client";
import { returnLines, returns } from "../db/schema";
import { recordOrderEvent } from "../orders/events";
import { lineProblems, linesSoFar, lockAfterSaleOrder, notAllowed, noted, type NotDone } from "./order";
import { writeRefund } from "./refunds";
import { canReturn, refundLeftMinor } from "./rules";

/** A line that came back: the order line's `position`, how many units, and whether they go back on hand. */
export interface ReturnedLine {
  position: number;
  quantity: number;
  /** Put back on hand (false: damaged, kept apart). */
  restock: boolean;
}

/** What {@link recordReturn} did: `done` with the return, the units put back on hand, and the refund it opened. */
export type ReturnResult =
  | { result: "done"; returnId: number; restockedUnits: number; refundId: number | null }
  | Exclude<NotDone, { result: "already" }>
  | { result: "already"; returnId: number };

/**
 * Goods came back after delivery: records which lines and how many units (all returns of a line together never above
 * what was sold on it), puts the units marked `restock` back on hand — once, with the return's row — and, when
 * `refund` is given, opens a refund for it (cause `return`, its lines the return's; recorded at once when it comes with its reference), all in
 * one transaction with the order's row locked. Only a paid order delivered or picked up (lib/refunds/rules.ts,
 * `canReturn`). `key` is the form's request key: posted again, it answers `already` with the return it recorded.
 * @param refund.amountMinor a positive integer, minor units, ≤ what is left to refund.
 * @returns `done`, `already`, `not_allowed`, `bad_lines` (lines not on the order, or more units than are left on
 *   them), `over_limit` (the refund, with what is left), or `not_found`.
 * @throws RangeError for no lines, a quantity that is not a positive integer, or a line given twice; the database's
 *   error when it cannot write.
 */
export function recordReturn(
  db: Db,
  orderId: string,
  {
    lines,
    refund,
    note,
    key,
    by,
    notify,
    now = new Date(),
  }: {
    lines: readonly ReturnedLine[];
    refund?: { amountMinor: number; reference?: string };
    note?: string;
    key: string;
    by: string;
    notify: boolean;
    now?: Date;
  },
): Promise<ReturnResult> {
  if (lines.length === 0) throw new RangeError("a return has lines");
  if (refund && (!Number.isInteger(refund.amountMinor) || refund.amountMinor <= 0))
    throw new RangeError(`refund amount ${refund.amountMinor}`);
  return db.transaction(async (tx) => {
    const order = await lockAfterSaleOrder(tx, orderId);
    if (!order) return { result: "not_found" };
    const [made] = await tx.select({ id: returns.id }).from(returns).where(eq(returns.requestKey, key));
    if (made) return { result: "already", returnId: made.id };
    if (!canReturn(order)) return notAllowed(order);
    const sold = await linesSoFar(tx, orderId);
    const problems = lineProblems(lines, sold, (line) => line.quantity - line.returned);
    if (problems.length > 0) return { result: "bad_lines", lines: problems };
    const leftMinor = refundLeftMinor(order);
    if (refund && refund.amountMinor > leftMinor) return { result: "over_limit", leftMinor };

    const [written] = await tx
      .insert(returns)
      .values({ orderId, requestKey: key, createdBy: by, note: note ?? "", createdAt: now })
      .returning({ id: returns.id });
    const returnId = written!.id;
    await tx
      .insert(returnLines)
      .values(
        lines.map(({ position, quantity, restock }) => ({ returnId, orderId, position, quantity, restocked: restock })),
      );
    const back = lines.flatMap(({ position, quantity, restock }): StockLine[] => {
      const productId = sold.get(position)!.productId;
      return restock && productId !== null ? [{ productId, quantity }] : [];
    });
    const restockedUnits = await putBack(tx, back, now);
    await recordOrderEvent(tx, orderId, {
      type: "order_returned",
      at: now,
      data: { returnId, lines, restockedUnits, by, ...noted(note) },
    });
    const opened = refund
      ? await writeRefund(tx, order, {
          amountMinor: refund.amountMinor,
          reference: refund.reference || undefined,
          cause: "return",
          returnId,
          by,
          notify,
          now,
        })
      : null;
    return { result: "done", returnId, restockedUnits, refundId: opened?.refundId ?? null };
  });
}
