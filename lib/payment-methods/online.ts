import "server-only";
import { paymentServiceConfig } from "../env";
import { createPayment, CUSTOMER_FIELDS, newCallContext, requestAccessToken } from "../payments";
import type { PaymentMethod } from "./method";

/**
 * Paying online, on the payment service's hosted page (docs/payment-service.md): a fresh access token for this one
 * order ("Access token": one token pays for one order, never cached or shared), asked for while the order is being
 * claimed; then the create call with it ("Creating a payment"). The customer is sent to the payment URL; the service's
 * signed webhook says whether they paid ("The signed webhook").
 */
export const online: PaymentMethod = {
  start({ details, locale, siteUrl }) {
    const config = paymentServiceConfig();
    const ctx = newCallContext({ locale });
    const accessToken = requestAccessToken(config, ctx);
    accessToken.catch(() => {}); // reported by pay(), or dropped with the payment when the checkout has its order
    return {
      async pay(order) {
        const payment = await createPayment(
          config,
          await accessToken,
          {
            amountMinor: order.amountMinor,
            currency: order.currency,
            return_url: new URL("/checkout/return", siteUrl).href,
            cancel_url: new URL("/checkout/cancel", siteUrl).href,
            custom: order.id,
            ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, details[field]])),
          },
          ctx,
        );
        return {
          kind: "payment_page",
          paymentToken: payment.paymentToken,
          paymentUrl: payment.paymentUrl,
          paymentExpiresAt: new Date(payment.paymentExpiresAt),
        };
      },
    };
  },
};
