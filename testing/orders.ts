import { eq } from "drizzle-orm";
import type { Db } from "../lib/db/client";
import { orders, promoCodes } from "../lib/db/schema";
import { newOrderId } from "../lib/ids";
import { ACCESS_TOKEN_LIFETIME_MS } from "../lib/payments";
import { createTestPromoCode } from "./promo-codes";

/**
 * Stores an order as a checkout leaves it once its payment exists (pending, a payment token and URL, the payment
 * page alive for 600 s from now), with any column overridden. A `started` or `failed` order gets no payment token
 * unless given; a cash order (`paymentMethod: "cash"`) never has one, and waits for the merchant's call for 48 h.
 * An order priced with a promo code gets `promo: { code, discountMinor }` (its `amountMinor` is already net of the
 * discount, as the claim stores it): the code's row is made (testing/promo-codes.ts) when the shop has none by that code.
 * @returns its id and payment token.
 */
export async function storeOrder(
  db: Db,
  overrides: Partial<typeof orders.$inferInsert> & { promo?: { code: string; discountMinor: number } } = {},
): Promise<{ id: string; paymentToken: string }> {
  const { promo, ...columns } = overrides;
  const id = columns.id ?? newOrderId();
  const paymentToken = columns.paymentToken ?? `pt-${id}`;
  const cash = columns.paymentMethod === "cash";
  const withoutPayment =
    cash || ((columns.status === "started" || columns.status === "failed") && !columns.paymentToken);
  const promoColumns = promo && {
    promoCodeId: await promoCodeId(db, promo.code),
    promoCode: promo.code,
    discountMinor: promo.discountMinor,
  };
  await db.insert(orders).values({
    id,
    sessionId: "session-a",
    fingerprint: id,
    status: "pending",
    amountMinor: 1875,
    currency: "LYD",
    locale: "en",
    paymentToken: withoutPayment ? null : paymentToken,
    paymentUrl: withoutPayment ? null : `https://pay.example.ly/pay/sandbox/v1/user/payment/preview/${paymentToken}`,
    paymentExpiresAt: cash ? null : new Date(Date.now() + ACCESS_TOKEN_LIFETIME_MS),
    confirmBy: cash ? new Date(Date.now() + 48 * 3_600_000) : null,
    claimExpiresAt: new Date(),
    ...promoColumns,
    ...columns,
  });
  return { id, paymentToken };
}

/** The id of the promo code `code` (upper case), made by {@link createTestPromoCode} when the shop has none by it. */
async function promoCodeId(db: Db, code: string): Promise<number> {
  const [found] = await db.select({ id: promoCodes.id }).from(promoCodes).where(eq(promoCodes.code, code));
  return found?.id ?? (await createTestPromoCode(db, { code })).id;
}
