import { eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { holding } from "../catalog/stock";
import { westernDigits } from "../money";
import { orders, type OrderStatus } from "../db/schema";

/**
 * Promo codes as every part of the shop reads them: what a code is (letters and digits, compared without case), and
 * the one definition of a code's **uses**. Uses are not a counter that could drift: they are counted from the orders
 * that carry the code, exactly as held stock is summed from open orders (lib/catalog/stock.ts):
 *
 * - **held** while its order holds its stock — a claim being paid for, a payment whose page is alive, a cash order
 *   waiting for the merchant's call; so a failed, cancelled or expired payment gives its use back at once, and a page
 *   that dies gives it back when it dies, without waiting for any job;
 * - **used** once its order is paid, or its cash order confirmed (and while it stays so);
 * - **left** = the code's limit − used − held.
 */

/** The statuses in which an order's use of its code is spent: paid (online or collected cash) or a confirmed cash order. */
const PROMO_USED_STATUSES: readonly OrderStatus[] = ["paid", "confirmed"];

/** A promo code as the customer may type it, once {@link normaliseCode} has read it. */
export const PROMO_CODE_PATTERN = /^[A-Z0-9]{2,32}$/;

/**
 * A customer's input as a code: trimmed, Arabic-Indic digits read as digits, upper case. Compare codes only in this
 * form (the database stores them so). Returns the text even when it is no possible code (check {@link PROMO_CODE_PATTERN}).
 */
export function normaliseCode(input: string): string {
  return westernDigits(input.normalize("NFKC").trim()).toUpperCase();
}

/** The orders whose use of a code counts at `now`, used or held (see the module's comment): a condition on `orders`. */
export function countedUse(now: Date): SQL {
  return or(inArray(orders.status, [...PROMO_USED_STATUSES]), holding(now))!;
}

/** Whether a counted use (see {@link countedUse}) is spent rather than held: a condition on `orders`. */
export const spentUse: SQL = inArray(orders.status, [...PROMO_USED_STATUSES]);

/**
 * The orders of one customer, for a code's limit per customer: the same normalised phone (lib/phone.ts), or the same
 * e-mail (any case) when one was given. A condition on `orders`.
 */
export function sameCustomer(customer: { phone?: string | null; email?: string | null }): SQL {
  const byPhone = customer.phone ? eq(orders.phone, customer.phone) : undefined;
  const byEmail = customer.email ? sql`lower(${orders.email}) = ${customer.email.toLowerCase()}` : undefined;
  return or(byPhone, byEmail) ?? sql`false`;
}
