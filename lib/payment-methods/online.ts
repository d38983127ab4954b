import "server-only";
import { paymentServiceConfig } from "../env";
import { createPayment, CUSTOMER_FIELDS, newCallContext, requestAccessToken } from "../payments";
import type { PaymentMethod } from "./method";

/**
 * Paying online, on the payment service's hosted page (docs/payment-service.md): a fresh access token for this one
 * order ("Access token": one token pays for one order, never cached or shared), then the create call with it
 * ("Creating a payment"). The customer is sent to the payment URL; the service's signed webhook says whether they paid
 * ("The signed webhook").
 */
export const online: PaymentMethod = {
  async pay(order, { details, siteUrl }) {
    const config = paymentServiceConfig();
    const ctx = newCallContext({ locale: order.locale });
    const accessToken = await requestAccessToken(config, ctx);
    const payment = await createPayment(
      config,
      accessToken,
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
