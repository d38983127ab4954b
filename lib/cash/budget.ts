import "server-only";
import { and, eq, gt, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { cashBlockedPhones, orders } from "../db/schema";
import { getEnv } from "../env";
import { readCashSettings } from "./settings";

/**
 * Against fake cash orders. A cash order costs nothing to place, but a fake one costs the merchant a call and a
 * courier's trip, so the checkout's claim (lib/checkout/claim.ts) asks these in its transaction before it stores one.
 */

/** The most open cash orders (being placed, or placed and waiting for the merchant's call) one phone, one address may have. */
export interface CashBudget {
  perPhone: number;
  perAddress: number;
}

/** Why a cash order is refused: its phone is `blocked` from cash, or its `phone` or client `address` has `max` open. */
export interface CashOrderRefusal {
  why: "blocked" | "phone" | "address";
  max: number;
}

/**
 * Whether a cash order from `phone` and `clientAddress` may be placed now, under its phone's lock (taken here, after
 * the address's, which the claim holds): the phone is not blocked from cash, and neither it nor the client address has
 * its budget of open cash orders — being placed (`started`, claim alive) or placed and waiting for the merchant's call
 * (until `confirmBy`).
 * @param budget default: CASH_ORDERS_PER_PHONE and CASH_ORDERS_PER_ADDRESS.
 * @returns the refusal, or `undefined` when the order may be placed.
 * @throws the database's error when it cannot read.
 */
export async function refuseCashOrder(
  tx: Tx,
  { phone, clientAddress, budget }: { phone: string; clientAddress: string; budget?: CashBudget },
  now: Date,
): Promise<CashOrderRefusal | undefined> {
  const { perPhone, perAddress } = budget ?? {
    perPhone: getEnv().CASH_ORDERS_PER_PHONE,
    perAddress: getEnv().CASH_ORDERS_PER_ADDRESS,
  };
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cash-phone:${phone}`}, 0))`);
  const open = and(
    eq(orders.paymentMethod, "cash"),
    or(
      and(eq(orders.status, "started"), gt(orders.claimExpiresAt, now)),
      and(eq(orders.status, "placed"), gt(orders.confirmBy, now)),
    ),
  );
  const [row] = await tx
    .select({
      blocked: sql<boolean>`exists (select 1 from ${cashBlockedPhones} where ${cashBlockedPhones.phone} = ${phone})`,
      byPhone: sql<number>`count(*) filter (where ${orders.phone} = ${phone})::int`,
      byAddress: sql<number>`count(*) filter (where ${orders.clientAddress} = ${clientAddress})::int`,
    })
    .from(orders)
    .where(and(open, or(eq(orders.phone, phone), eq(orders.clientAddress, clientAddress))));
  if (row!.blocked) return { why: "blocked", max: 0 };
  if (row!.byPhone >= perPhone) return { why: "phone", max: perPhone };
  if (row!.byAddress >= perAddress) return { why: "address", max: perAddress };
  return undefined;
}

/**
 * The deadline of the merchant's call for a cash order placed at `now`: the settings' `confirmWithinHours` later.
 * Until then a placed order holds its units; after it, the scheduled job expires it.
 * @throws the database's error when it cannot read.
 */
export async function confirmByFrom(tx: Tx, now: Date): Promise<Date> {
  return new Date(now.getTime() + (await readCashSettings(tx)).confirmWithinHours * 3_600_000);
}
