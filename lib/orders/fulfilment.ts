import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { orders } from "../db/schema";
import { changeOrder } from "./events";

/**
 * Marks a paid order as fulfilled (the goods are on their way), once, and records who did it.
 * @returns `fulfilled`, or why not: `not_paid` (only a confirmed payment may be shipped), `already_fulfilled`,
 *   `not_found`.
 */
export async function fulfilOrder(
  db: Db,
  id: string,
  adminEmail: string,
): Promise<"fulfilled" | "not_paid" | "already_fulfilled" | "not_found"> {
  const now = new Date();
  const fulfilled = await changeOrder(
    db,
    id,
    { set: { fulfilledAt: now }, where: and(eq(orders.status, "paid"), isNull(orders.fulfilledAt)) },
    { type: "fulfilled", at: now, data: { by: adminEmail } },
  );
  if (fulfilled) return "fulfilled";
  const [order] = await db
    .select({ status: orders.status, fulfilledAt: orders.fulfilledAt })
    .from(orders)
    .where(eq(orders.id, id));
  return !order ? "not_found" : order.fulfilledAt ? "already_fulfilled" : "not_paid";
}
