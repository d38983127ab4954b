import type { Db } from "../lib/db/client";
import { orders } from "../lib/db/schema";
import { newOrderId } from "../lib/ids";
import { ACCESS_TOKEN_LIFETIME_MS } from "../lib/payments";

/**
 * Stores an order as a checkout leaves it once its payment exists (pending, a payment token and URL, the payment
 * page alive for 600 s from now), with any column overridden. A `started` or `failed` order gets no payment token
 * unless given; a cash order (`paymentMethod: "cash"`) never has one, and waits for the merchant's call for 48 h.
 * @returns its id and payment token.
 */
export async function storeOrder(
  db: Db,
  overrides: Partial<typeof orders.$inferInsert> = {},
): Promise<{ id: string; paymentToken: string }> {
  const id = overrides.id ?? newOrderId();
  const paymentToken = overrides.paymentToken ?? `pt-${id}`;
  const cash = overrides.paymentMethod === "cash";
  const withoutPayment =
    cash || ((overrides.status === "started" || overrides.status === "failed") && !overrides.paymentToken);
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
    ...overrides,
  });
  return { id, paymentToken };
}
