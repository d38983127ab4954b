import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { orders, type OrderFlag, type OrderRow } from "../db/schema";
import { changeOrder } from "./events";

/**
 * The merchant's flags on an order (`ORDER_FLAGS` in lib/db/schema.ts): raised by the moves of lib/orders/settle.ts
 * and by the webhook, and resolved once the merchant has dealt with them — by the "mark as paid" that answers them
 * (settle.ts, `RESOLVED_BY_MARK`), or by an admin from the order's page with a note ({@link resolveFlag}). A flag is
 * never removed: `flags` keeps every flag raised, `resolved_flags` those dealt with, and the event that resolved each
 * says who, when and why. An order needs the merchant's attention while it has a flag that is not resolved.
 */

/**
 * Orders with a flag not yet resolved, as an SQL condition: the stored column `needs_attention`, which the database
 * computes from `flags` and `resolved_flags`, and which its partial index `orders_needing_attention_created` is built
 * on (lib/db/schema.ts), so that the back office's "flagged" filter and its count read only those orders.
 */
export function hasUnresolvedFlag(): SQL {
  return sql`${orders.needsAttention}`;
}

/** An order's flags that are not resolved, in the order they were raised. */
export function unresolvedFlags(order: Pick<OrderRow, "flags" | "resolvedFlags">): OrderFlag[] {
  return order.flags.filter((flag) => !order.resolvedFlags.includes(flag));
}

/**
 * The columns that raise `flags` on an order, for a change's `set` (`changeOrder` in lib/orders/events.ts): each flag
 * added unless the order has it, and taken out of the resolved ones, since raised again it is news again (a second
 * payment with another amount). Every flag is raised through this: the moves of settle.ts and the webhook alike.
 */
export function raiseFlags(...flags: OrderFlag[]): { flags: SQL<OrderFlag[]>; resolvedFlags: SQL<OrderFlag[]> } {
  return {
    flags: flags.reduce<SQL<OrderFlag[]>>(
      (current, flag) =>
        sql`case when ${flag} = any(${current}) then ${current} else array_append(${current}, ${flag}) end`,
      sql`${orders.flags}`,
    ),
    resolvedFlags: flags.reduce<SQL<OrderFlag[]>>(
      (current, flag) => sql`array_remove(${current}, ${flag})`,
      sql`${orders.resolvedFlags}`,
    ),
  };
}

/** What {@link resolveFlag} did. */
export type ResolveFlagOutcome = "resolved" | "already_resolved" | "not_flagged" | "not_found";

/**
 * Marks one flag of an order as dealt with, once, by the admin `by` with their `note` (what they did about it): the
 * flag joins `resolved_flags` and a `flag_resolved` event records who, when and the note, in one transaction. Two
 * admins resolving it at once: one resolves, the other is told it was resolved already.
 * @param input.by the admin's e-mail; input.note a non-empty note (the caller checks its length).
 * @returns `resolved`, or why not: `already_resolved`, `not_flagged` (the order never had it), `not_found`.
 * @throws the database's error when it cannot write.
 */
export async function resolveFlag(
  db: DbOrTx,
  orderId: string,
  flag: OrderFlag,
  { by, note }: { by: string; note: string },
  now = new Date(),
): Promise<ResolveFlagOutcome> {
  const open = and(sql`${flag} = any(${orders.flags})`, sql`not (${flag} = any(${orders.resolvedFlags}))`);
  const resolved = await changeOrder(
    db,
    orderId,
    { set: { resolvedFlags: sql`array_append(${orders.resolvedFlags}, ${flag})` }, where: open },
    { type: "flag_resolved", at: now, data: { flag, by, note } },
  );
  if (resolved) return "resolved";
  const [order] = await db
    .select({ flags: orders.flags, resolvedFlags: orders.resolvedFlags })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return "not_found";
  return order.resolvedFlags.includes(flag) ? "already_resolved" : "not_flagged";
}
