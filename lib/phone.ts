import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

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
 * A Libyan mobile number in the international form an SMS network routes (E.164): `+218912345678`.
 * @param input the number as the customer typed it or as an order stores it (`0912345678`).
 * @returns the number, or `null` when it is not a valid Libyan mobile (a landline, another country's, not a number).
 */
export function libyanMobileE164(input: string): string | null {
  const local = normaliseLibyanMobile(input);
  return local && `+218${local.slice(1)}`;
}
