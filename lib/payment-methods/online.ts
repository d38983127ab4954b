import "server-only";
import { createPayment } from "../payments";
import type { PaymentMethod } from "./method";

/**
 * Paying online, on the payment service's hosted page (docs/payment-service.md): the checkout asks for a fresh access
 * token for this one order ("Access token": one token pays for one order, never cached or shared), then
 * `createPayment` creates the payment with it ("Creating a payment"), calling the service directly. The customer is
 * sent to the payment URL; the service's signed webhook says whether they paid ("The signed webhook").
 */
export const online: PaymentMethod = { needsAccessToken: true, pay: createPayment };
