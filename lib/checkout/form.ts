import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
import { z } from "zod";
import type { Gateway } from "../gateways";
import { CUSTOMER_FIELDS } from "../payments";
import type { ProblemKey } from "../problems";

/** The checkout form: its fields, its zod schema, and what a valid submission becomes. No React, no network. */

/**
 * Field names of the checkout form: the customer's details of the create call, under the spec's own names
 * (docs/payment-service.md, "Creating a payment"), so a reader can match form, code and wire. The checkout's
 * fingerprint covers every one of them (lib/checkout/place-order.ts).
 */
export const CHECKOUT_FIELDS = CUSTOMER_FIELDS;
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
 * `00218912345678` — to the local form the service formats (docs/payment-service.md, "Creating a payment" `phone`):
 * `0912345678`.
 * @returns the normalised number, or `null` when it is not a valid Libyan mobile number.
 */
export function normaliseLibyanMobile(input: string): string | null {
  const international = input.trim().replace(/^00/, "+");
  const number = parsePhoneNumberFromString(international, "LY");
  if (!number || number.country !== "LY" || !number.isValid()) return null;
  return `0${number.nationalNumber}`;
}

/**
 * Whether a name holds something mail clients turn into a link: a scheme (`https:`), `www.`, `//`, or a host name
 * (`evil.example`: two letters or more on each side of a dot). Initials such as "J.R. Smith" are names.
 */
export function looksLikeWebAddress(name: string): boolean {
  return /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\/\/|[\p{L}\p{N}-]{2,}\.\p{L}{2,}/iu.test(name);
}

/**
 * The checkout form schema (zod). Issue messages are {@link ProblemKey}s, translated by the page. Every field is
 * optional: with none the customer fills them in on the payment page; with `full_name`, `email`, `phone` and
 * `payment_gateway` all given, the payment page goes straight to the gateway (docs/payment-service.md,
 * "Creating a payment").
 * @param gateways the aliases offered in the picker; any other alias is refused. One schema is built per list and
 *   kept: zod compiles a schema on its first use, which a checkout should not pay for every time.
 */
export function checkoutFormSchema(gateways: readonly Gateway[]) {
  let schema = schemas.get(gateways);
  if (!schema) schemas.set(gateways, (schema = buildSchema(gateways)));
  return schema;
}

const schemas = new WeakMap<readonly Gateway[], ReturnType<typeof buildSchema>>();

function buildSchema(gateways: readonly Gateway[]) {
  return z.object({
    full_name: optionalText(100, "fullNameTooLong").pipe(
      z
        .string()
        // Control characters never belong in a name; any script (Arabic, Latin, …) and punctuation do.
        .refine((name) => !/\p{Cc}/u.test(name), "fullNameControl" satisfies ProblemKey)
        // The name goes into the merchant's e-mail, where a web address becomes a link someone may follow.
        .refine((name) => !looksLikeWebAddress(name), "fullNameUrl" satisfies ProblemKey)
        .optional(),
    ),
    email: optionalText(254, "emailTooLong").pipe(z.email("emailInvalid" satisfies ProblemKey).optional()),
    phone: optionalText(32, "phoneInvalid")
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const normalised = normaliseLibyanMobile(value);
        if (normalised === null) {
          ctx.addIssue({ code: "custom", message: "phoneInvalid" satisfies ProblemKey });
          return z.NEVER;
        }
        return normalised;
      })
      .optional(),
    payment_gateway: optionalText(50, "gatewayInvalid").refine(
      (alias) => alias === undefined || gateways.some((gateway) => gateway.alias === alias),
      "gatewayInvalid" satisfies ProblemKey,
    ),
  });
}

/** The customer's details after validation: trimmed, phone normalised, blanks removed; the spec's field names. */
export type CheckoutDetails = z.output<ReturnType<typeof checkoutFormSchema>>;

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
