import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
import { z } from "zod";
import type { PricedCart } from "./cart";
import type { Gateway } from "./gateways";
import { CURRENCY, type MinorUnits } from "./money";
import type { PaymentRequest } from "./payments";
import type { ProblemKey } from "./problems";

/**
 * The checkout's rules, free of React and of the network: the form schema, the order an accepted form becomes,
 * and the one-way moves of that order when the customer comes back from the payment page (spec §4.3).
 */

// ---------------------------------------------------------------------------------------------------------------
// The form
// ---------------------------------------------------------------------------------------------------------------

/** Field names of the checkout form: the spec's own (§4.2), so a reader can match form, code and wire. */
export const CHECKOUT_FIELDS = ["full_name", "email", "phone", "payment_gateway"] as const;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

/** Text from a form: trimmed, and `undefined` when blank, so optional fields can simply be left empty. */
const optionalText = (max: number, tooLong: ProblemKey) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(z.string().max(max, tooLong).optional());

/**
 * Normalises a Libyan mobile number written in any common way — `091 234 5678`, `0912345678`, `+218 91-234-5678`,
 * `00218912345678` — to the local form the service formats (§4.2 `phone`): `0912345678`.
 * @returns the normalised number, or `null` when it is not a valid Libyan mobile number.
 */
export function normaliseLibyanMobile(input: string): string | null {
  const international = input.trim().replace(/^00/, "+");
  const number = parsePhoneNumberFromString(international, "LY");
  if (!number || number.country !== "LY" || !number.isValid()) return null;
  return `0${number.nationalNumber}`;
}

/**
 * The checkout form schema (zod). Issue messages are {@link ProblemKey}s, translated by the page. Every field is optional: with none the customer fills them in on the payment
 * page; with `full_name`, `email`, `phone` and `payment_gateway` all given, the payment page goes straight to the
 * gateway (§4.2 rules 5–6).
 * @param gateways the aliases offered in the picker; any other alias is refused.
 */
export function checkoutFormSchema(gateways: readonly Gateway[]) {
  return z.object({
    full_name: optionalText(100, "fullNameTooLong").pipe(
      z
        .string()
        // Control characters never belong in a name; any script (Arabic, Latin, …) and punctuation do.
        .refine((name) => !/\p{Cc}/u.test(name), "fullNameControl" satisfies ProblemKey)
        .optional(),
    ),
    email: optionalText(254, "emailTooLong").pipe(z.email("emailInvalid" satisfies ProblemKey).optional()),
    phone: optionalText(32, "phoneInvalid").transform((value, ctx) => {
      if (value === undefined) return undefined;
      const normalised = normaliseLibyanMobile(value);
      if (normalised === null) {
        ctx.addIssue({ code: "custom", message: "phoneInvalid" satisfies ProblemKey });
        return z.NEVER;
      }
      return normalised;
    }),
    payment_gateway: optionalText(50, "gatewayInvalid").refine(
      (alias) => alias === undefined || gateways.some((gateway) => gateway.alias === alias),
      "gatewayInvalid" satisfies ProblemKey,
    ),
  });
}

/** The customer's details after validation: trimmed, phone normalised, blanks removed. */
export interface CheckoutDetails {
  full_name?: string;
  email?: string;
  phone?: string;
  payment_gateway?: string;
}

/** What the form posted, as strings, so a failed submission can show the customer what they typed. */
export type CheckoutValues = Partial<Record<CheckoutField, string>>;

/** Picks the checkout fields out of a posted form as plain strings (files and unknown fields are ignored). */
export function readCheckoutValues(form: FormData): CheckoutValues {
  const values: CheckoutValues = {};
  for (const field of CHECKOUT_FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value;
  }
  return values;
}

/** Whether the payment page will skip straight to the gateway (§4.2 rule 5): all three details and a gateway. */
export function willAutoSubmit(details: CheckoutDetails): boolean {
  return Boolean(details.full_name && details.email && details.phone && details.payment_gateway);
}

// ---------------------------------------------------------------------------------------------------------------
// The order
// ---------------------------------------------------------------------------------------------------------------

/** `pending` until the customer comes back; then `paid` or `cancelled`, once. */
export type OrderStatus = "pending" | "paid" | "cancelled";

/** An order as the session stores it: ids, quantities and prices in minor units, no product data. */
export interface Order {
  id: string;
  lines: { slug: string; quantity: number; unitMinor: MinorUnits }[];
  amountMinor: MinorUnits;
  currency: string;
  paymentToken: string;
  paymentUrl: string;
  status: OrderStatus;
  /** ms since epoch */
  createdAt: number;
  /** When the access token behind the payment was issued: the payment page expires 600 s later. */
  accessTokenIssuedAt: number;
  /** {@link checkoutFingerprint} of what was paid for: an identical resubmission resumes this payment. */
  fingerprint: string;
  settledAt?: number;
}

/** Shape of an order read back from the session cookie. */
export const orderSchema = z.object({
  id: z.string().max(64),
  lines: z.array(z.object({ slug: z.string().max(100), quantity: z.number().int().positive(), unitMinor: z.number().int().nonnegative() })).max(50),
  amountMinor: z.number().int().nonnegative(),
  currency: z.string().max(3),
  paymentToken: z.string().max(512),
  paymentUrl: z.string().max(2048),
  status: z.enum(["pending", "paid", "cancelled"]),
  createdAt: z.number(),
  accessTokenIssuedAt: z.number(),
  fingerprint: z.string().max(64),
  settledAt: z.number().optional(),
}) satisfies z.ZodType<Order>;

/** A new order id, sent to the service as `custom` (§4.2): `ord_` and 16 random base-32 characters. */
export function newOrderId(): string {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `ord_${Array.from(bytes, (byte) => alphabet[byte % 32]).join("")}`;
}

/**
 * The payment request for a priced cart (§4.2): the server's own total, the shop's return URL and cancel URL, the
 * order id as `custom`, and the customer's details when given.
 * @param siteUrl the shop's public origin (`SITE_URL`), e.g. `https://shop.example.ly`.
 */
export function buildPaymentRequest(orderId: string, cart: PricedCart, details: CheckoutDetails, siteUrl: string): PaymentRequest {
  return {
    amountMinor: cart.totalMinor,
    currency: CURRENCY,
    returnUrl: new URL("/checkout/return", siteUrl).href,
    cancelUrl: new URL("/checkout/cancel", siteUrl).href,
    orderId,
    fullName: details.full_name,
    email: details.email,
    phone: details.phone,
    paymentGateway: details.payment_gateway,
  };
}

/** Access token lifetime (spec §2.2, §8); the payment page of a payment expires this long after its token. */
export const ACCESS_TOKEN_LIFETIME_MS = 600_000;
/** A pending payment is resumed only while its payment page has at least this long left to live. */
const RESUME_MARGIN_MS = 120_000;

/** Whether a pending order's payment page still works (600 s from its access token), so the customer can go back. */
export function isPaymentPageOpen(order: Order, now: number = Date.now()): boolean {
  return order.status === "pending" && now < order.accessTokenIssuedAt + ACCESS_TOKEN_LIFETIME_MS;
}

/**
 * A digest of everything a payment is made of — lines, prices, total and the customer's details — so a double
 * click, a second tab, or the back button and submit again can be recognised as the same checkout.
 */
export async function checkoutFingerprint(cart: PricedCart, details: CheckoutDetails): Promise<string> {
  const material = JSON.stringify([
    cart.lines.map((line) => [line.product.slug, line.quantity, line.product.priceMinor]),
    cart.totalMinor,
    details.full_name ?? "",
    details.email ?? "",
    details.phone ?? "",
    details.payment_gateway ?? "",
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  return Buffer.from(digest).toString("base64url");
}

/**
 * Whether a resubmitted checkout may resume the session's pending payment instead of creating another: same
 * fingerprint, still pending, and its payment page (600 s from the access token) has a while left to live.
 * Resuming sends the customer to the same payment URL, so one checkout is one payment at the service.
 */
export function canResume(order: Order, fingerprint: string, now: number = Date.now()): boolean {
  return order.fingerprint === fingerprint && isPaymentPageOpen(order, now + RESUME_MARGIN_MS);
}

// ---------------------------------------------------------------------------------------------------------------
// Coming back from the payment page (§4.3)
// ---------------------------------------------------------------------------------------------------------------

/** What a redirect back did, for the order page to explain. Only `paid` and `cancelled` change anything. */
export type ReturnOutcome = "paid" | "cancelled" | "already_settled" | "token_mismatch" | "invalid_redirect" | "no_order";

/** Which route the customer came back through; the `type` parameter must agree with it. */
export type ReturnRoute = "return" | "cancel";

const returnQuerySchema = z.object({
  type: z.enum(["success", "cancel"]),
  token: z.string().min(1).max(512),
});

/**
 * Reads `type` and `token` from a redirect's query string. The platform may add parameters of its own; those are
 * ignored. A parameter given twice with different values is refused rather than guessed at.
 * @returns the pair, or `null` when missing, repeated, unknown (`type=error` included) or too long.
 */
export function parseReturnQuery(params: URLSearchParams): { type: "success" | "cancel"; token: string } | null {
  const single = (name: string) => {
    const values = params.getAll(name);
    return values.length > 0 && values.every((value) => value === values[0]) ? values[0] : undefined;
  };
  const parsed = returnQuerySchema.safeParse({ type: single("type"), token: single("token") });
  return parsed.success ? parsed.data : null;
}

/**
 * Applies a redirect back from the payment page to the session's order. The move is one-way and bound to the
 * order's own payment token: `pending` → `paid` (success at the return URL) or `cancelled` (cancel at the cancel
 * URL), once. A token that is not this order's, a `type` that does not belong to the route, or a replay changes
 * nothing. The redirect is not proof of payment: see the README before shipping goods.
 * @returns the (possibly updated) order and what happened.
 */
export function applyReturn(
  order: Order | undefined,
  route: ReturnRoute,
  params: URLSearchParams,
  now: number = Date.now(),
): { order: Order | undefined; outcome: ReturnOutcome } {
  if (!order) return { order, outcome: "no_order" };
  const query = parseReturnQuery(params);
  if (!query || (route === "return") !== (query.type === "success")) return { order, outcome: "invalid_redirect" };
  if (query.token !== order.paymentToken) return { order, outcome: "token_mismatch" };
  if (order.status !== "pending") return { order, outcome: "already_settled" };
  const status: OrderStatus = query.type === "success" ? "paid" : "cancelled";
  return { order: { ...order, status, settledAt: now }, outcome: status };
}
