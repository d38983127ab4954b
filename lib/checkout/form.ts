import { z } from "zod";
import { PAYMENT_METHODS as PAYMENT_METHOD_NAMES } from "../db/schema";
import type { Gateway } from "../gateways";
import { CUSTOMER_FIELDS } from "../payments";
import { normaliseLibyanMobile } from "../phone";
import type { ProblemKey } from "../problems";
import { normaliseCode } from "../promo-codes/codes";
import { hasDirectionControl, looksLikeWebAddress } from "../typed-text";

/** The checkout form: its fields, its zod schema, and what a valid submission becomes. No React, no network. */

/**
 * Field names of the checkout form: the customer's details of the create call, under the spec's own names
 * (docs/payment-service.md, "Creating a payment"), so a reader can match form, code and wire; then how the goods
 * reach the customer, the way to pay, and a promo code. The checkout's fingerprint covers every one of them
 * (lib/checkout/fingerprint.ts; the code as the price it gives) but the customer's choice of text messages, which
 * changes nothing of the payment.
 */
const DELIVERY_FIELDS = [
  "delivery_method",
  "delivery_zone",
  "delivery_address",
  "delivery_landmark",
  "second_phone",
] as const;
export const CHECKOUT_FIELDS = [
  ...CUSTOMER_FIELDS,
  "sms_updates",
  ...DELIVERY_FIELDS,
  "payment_method",
  "promo_code",
] as const;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

/** How long the area-and-street address and the landmark may be (characters). */
const ADDRESS_MAX = 300;
const LANDMARK_MAX = 200;

/** Text from a form: trimmed, and `undefined` when blank, so optional fields can simply be left empty. */
const optionalText = (max: number, tooLong: ProblemKey) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(z.string().max(max, tooLong).optional());

/** What the checkout asks of this cart: whether it holds goods to deliver, and whether pickup is offered now. */
export interface CheckoutNeeds {
  /** The cart holds a physical product (lib/catalog/products.ts, `kind`): delivery or pickup is asked. */
  physical: boolean;
  /** The merchant offers in-store pickup (lib/delivery/zones.ts, `readPickup`). */
  pickup: boolean;
  /** The ids of the delivery zones the merchant delivers to now (lib/delivery/zones.ts, `listDeliveryZones`). */
  zones: readonly number[];
}

/**
 * The checkout form schema (zod). Issue messages are {@link ProblemKey}s, translated by the page. The rules:
 * - A cart with a physical product asks how it reaches the customer (`delivery_method`: delivery, or pickup when it
 *   is offered) and requires the phone (the courier or the shop calls it); a delivery requires the city
 *   (`delivery_zone`, the id of a zone the merchant delivers to now: one turned off since the form was shown is
 *   refused on its field) and the area and street; the landmark and a second phone are optional.
 * - A cart of digital products only asks nothing of delivery (any such field is ignored) and requires an e-mail or a
 *   phone: the shop must be able to reach the customer and send the receipt.
 * - With `full_name`, `email`, `phone` and `payment_gateway` all given, the payment page goes straight to the gateway
 *   (docs/payment-service.md, "Creating a payment").
 * - `payment_method` is `online` (blank: the default) or `cash` (on delivery, or at pickup). Cash requires a valid
 *   Libyan mobile (the merchant calls it to confirm the order) and has no gateway (any one posted is dropped). Whether
 *   this checkout may be paid in cash is the server's decision after the form (lib/cash/settings.ts, `cashOffer`).
 * - `promo_code` is optional, read by {@link typedPromoCode}; the action checks it (lib/promo-codes/check.ts).
 * - `sms_updates` is the "Text me about this order" box: `yes` ticked (`true`), anything else (`no`, its hidden
 *   partner, or nothing: the box not shown) not (`undefined`). The phone it texts is already a Libyan mobile (`phoneInvalid` refuses any other
 *   number on the phone field); ticked with no phone (a digital cart with an e-mail only), nothing is sent.
 * @param gateways the aliases offered in the picker; any other alias is refused. Schemas are built once per list and
 *   needs, and kept: zod compiles a schema on its first use, which a checkout should not pay for every time.
 */
export function checkoutFormSchema(gateways: readonly Gateway[], needs: CheckoutNeeds) {
  let built = schemas.get(gateways);
  if (!built) schemas.set(gateways, (built = new Map()));
  const key = `${needs.physical}:${needs.pickup}:${needs.zones.join(",")}`;
  let schema = built.get(key);
  if (!schema) built.set(key, (schema = buildSchema(gateways, needs)));
  return schema;
}

/**
 * The promo code a checkout form carries, as codes are compared (lib/promo-codes/codes.ts, `normaliseCode`: trimmed,
 * Arabic-Indic digits read, upper case); `undefined` when the field is blank. Whether it is a code of this shop is
 * lib/promo-codes/check.ts's to say.
 */
export function typedPromoCode(values: { promo_code?: string }): string | undefined {
  return normaliseCode(values.promo_code ?? "") || undefined;
}

const schemas = new WeakMap<readonly Gateway[], Map<string, ReturnType<typeof buildSchema>>>();

/** A Libyan mobile number from a form, normalised ({@link normaliseLibyanMobile}); blank is `undefined`. */
const mobile = (invalid: ProblemKey) =>
  optionalText(32, invalid)
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const normalised = normaliseLibyanMobile(value);
      if (normalised === null) {
        ctx.addIssue({ code: "custom", message: invalid });
        return z.NEVER;
      }
      return normalised;
    })
    .optional();

/**
 * One line of text for the courier, which the merchant's e-mail also shows: bounded; no control characters (a tab or
 * line break has no place on a label), no direction controls (the address would read other than it is), and no web
 * address (the e-mail would show it as a link someone may follow).
 */
const courierText = (max: number, tooLong: ProblemKey, control: ProblemKey, url: ProblemKey) =>
  optionalText(max, tooLong).pipe(
    z
      .string()
      .refine((text) => !/\p{Cc}/u.test(text), control)
      .refine((text) => !hasDirectionControl(text), "directionControl" satisfies ProblemKey)
      .refine((text) => !looksLikeWebAddress(text), url)
      .optional(),
  );

/** How the goods reach the customer, once the form is valid: delivered to an address in a zone, or picked up. */
export type Delivery =
  | { method: "delivery"; zoneId: number; address: string; landmark?: string; secondPhone?: string }
  | { method: "pickup" };

function buildSchema(gateways: readonly Gateway[], needs: CheckoutNeeds) {
  const fields = z.object({
    full_name: optionalText(100, "fullNameTooLong").pipe(
      z
        .string()
        // Control characters never belong in a name; any script (Arabic, Latin, …) and punctuation do.
        .refine((name) => !/\p{Cc}/u.test(name), "fullNameControl" satisfies ProblemKey)
        .refine((name) => !hasDirectionControl(name), "directionControl" satisfies ProblemKey)
        // The name goes into the merchant's e-mail, where a web address becomes a link someone may follow.
        .refine((name) => !looksLikeWebAddress(name), "fullNameUrl" satisfies ProblemKey)
        .optional(),
    ),
    email: optionalText(254, "emailTooLong").pipe(z.email("emailInvalid" satisfies ProblemKey).optional()),
    phone: mobile("phoneInvalid"),
    sms_updates: z
      .string()
      .optional()
      .transform((value) => value === "yes" || undefined)
      .pipe(z.literal(true).optional()),
    payment_gateway: optionalText(50, "gatewayInvalid").refine(
      (alias) => alias === undefined || gateways.some((gateway) => gateway.alias === alias),
      "gatewayInvalid" satisfies ProblemKey,
    ),
    delivery_method: optionalText(20, "deliveryMethodMissing"),
    delivery_zone: optionalText(20, "zoneUnavailable"),
    delivery_address: courierText(ADDRESS_MAX, "addressTooLong", "addressControl", "addressUrl"),
    delivery_landmark: courierText(LANDMARK_MAX, "landmarkTooLong", "landmarkControl", "landmarkUrl"),
    second_phone: mobile("secondPhoneInvalid"),
    payment_method: optionalText(20, "paymentMethodInvalid").pipe(
      z.enum(PAYMENT_METHOD_NAMES, "paymentMethodInvalid" satisfies ProblemKey).optional(),
    ),
    promo_code: z
      .string()
      .transform((promo_code) => typedPromoCode({ promo_code }))
      .optional(),
  });
  type Fields = z.output<typeof fields>;
  const issue = (ctx: z.RefinementCtx, path: CheckoutField, message: ProblemKey) =>
    ctx.addIssue({ code: "custom", path: [path], message });

  return (
    fields
      // Which fields are required depends on the cart and on the other fields. It runs even when a field is invalid
      // (`when`), so one submission shows every problem; a field that failed counts as given (its own message shows).
      .superRefine(
        (values: Fields, ctx) => {
          if (values.payment_method === "cash" && values.phone === undefined) issue(ctx, "phone", "cashPhoneRequired");
          if (!needs.physical) {
            if (values.email === undefined && values.phone === undefined) issue(ctx, "email", "contactRequired");
            return;
          }
          if (values.phone === undefined) issue(ctx, "phone", "phoneRequired");
          const method = values.delivery_method;
          if (method === undefined) issue(ctx, "delivery_method", "deliveryMethodMissing");
          else if (method === "pickup") {
            if (!needs.pickup) issue(ctx, "delivery_method", "pickupUnavailable");
          } else if (method !== "delivery") issue(ctx, "delivery_method", "deliveryMethodMissing");
          else {
            if (values.delivery_zone === undefined) issue(ctx, "delivery_zone", "zoneMissing");
            else if (!needs.zones.some((id) => String(id) === values.delivery_zone))
              issue(ctx, "delivery_zone", "zoneUnavailable");
            if (values.delivery_address === undefined) issue(ctx, "delivery_address", "addressMissing");
          }
        },
        { when: () => true },
      )
      .transform(
        ({
          delivery_method,
          delivery_zone,
          delivery_address,
          delivery_landmark,
          second_phone,
          payment_gateway,
          ...contact
        }): typeof contact & { payment_gateway?: string; delivery?: Delivery } => {
          // The rules above hold here: a physical cart has a valid method, and a delivery its zone and address.
          let delivery: Delivery | undefined;
          if (needs.physical && delivery_method === "pickup") delivery = { method: "pickup" };
          else if (needs.physical)
            delivery = {
              method: "delivery",
              zoneId: Number(delivery_zone),
              address: delivery_address!,
              ...(delivery_landmark ? { landmark: delivery_landmark } : {}),
              ...(second_phone ? { secondPhone: second_phone } : {}),
            };
          // Paying in cash asks nothing of the service: no gateway.
          const gateway = payment_gateway && contact.payment_method !== "cash" ? { payment_gateway } : {};
          return delivery ? { ...contact, ...gateway, delivery } : { ...contact, ...gateway };
        },
      )
  );
}

/**
 * The customer's details after validation: trimmed, phones normalised, blanks removed, under the spec's field names;
 * and `delivery` when the cart holds goods to deliver.
 */
export type CheckoutDetails = z.output<ReturnType<typeof checkoutFormSchema>>;

/** What the form posted, as strings, so a failed submission can show the customer what they typed. */
export type CheckoutValues = Partial<Record<CheckoutField, string>>;

/**
 * Picks the checkout fields out of a posted form as plain strings (files and unknown fields are ignored). A field
 * posted twice counts its last value: the "Text me" box (`sms_updates=yes`) follows a hidden `sms_updates=no`, so a
 * refused post can tell "unticked" from "not shown yet" without JavaScript.
 */
export function readCheckoutValues(form: FormData): CheckoutValues {
  const values: CheckoutValues = {};
  for (const field of CHECKOUT_FIELDS) {
    const value = form.getAll(field).at(-1);
    if (typeof value === "string") values[field] = value;
  }
  return values;
}
