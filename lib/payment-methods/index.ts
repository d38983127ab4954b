import "server-only";
import type { PaymentMethodName } from "../db/schema";
import type { PaymentMethod } from "./method";
import { cash } from "./cash";
import { online } from "./online";

export type { PaymentStart } from "./method";

/** Every way to pay (./method.ts), by the name an order stores (`orders.payment_method`). */
export const PAYMENT_METHODS: Record<PaymentMethodName, PaymentMethod> = { online, cash };
