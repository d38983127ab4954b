/**
 * The shop's ids: a kind (`ord` an order, `lst` a reconciliation list, `imp` a catalogue import), `_`, then 16
 * characters of Crockford's base 32 (80 random bits): short enough for a URL, unguessable, and checked against
 * {@link idPattern} before any query, so a made-up id never reaches SQL.
 */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** The kinds of id the shop makes. */
type IdKind = "ord" | "lst" | "imp";

/** A new random id of `kind`, e.g. `ord_7k2m…` (16 characters after the `_`). */
export function newId(kind: IdKind): string {
  // 256 is a multiple of 32, so `byte % 32` picks every character equally often.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${kind}_${Array.from(bytes, (byte) => ALPHABET[byte % 32]).join("")}`;
}

/** What an id of `kind` looks like, exactly (anchored): for checking one from a URL, a form or a file. */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${kind}_[${ALPHABET}]{16}$`);
}

/** Order ids: `ord_` and 16 base-32 characters. */
export const ORDER_ID = idPattern("ord");

/** A new random order id, sent to the service as `custom` (docs/payment-service.md, "Creating a payment"). */
export function newOrderId(): string {
  return newId("ord");
}
