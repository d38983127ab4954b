import "server-only";
import type { PaymentMethod } from "./method";

/**
 * Cash on delivery, or at pickup: the customer pays the courier (or the counter) in cash, so nothing is asked of the
 * payment service and no access token is ever requested. The claim stored the order with the deadline of the
 * merchant's call (`confirm_by`); recording the start places it (`placed`), holding its units until then. What happens
 * next — the call, the parcel's way, the cash handed over — is lib/cash/.
 */
export const cash: PaymentMethod = {
  needsAccessToken: false,
  pay: async () => ({ kind: "cash_order" }),
};
