/**
 * Money in this project is always an integer number of **minor units**: 1/100 of a Libyan dinar (LYD), the unit of
 * the payment service's `amount` field (docs/payment-service.md, "Creating a payment": `<digits>.<2 digits>`). Floats
 * never hold money; the decimal string exists only at the wire (`toWireAmount`) and on screen (`formatMoney`).
 */

/** The only currency this shop sells in (docs/payment-service.md, "Creating a payment" `currency`). */
export const CURRENCY = "LYD";

/** Minor units per major unit: the service works in hundredths (two decimals), although ISO 4217 gives LYD three. */
const MINOR_UNITS_PER_MAJOR = 100;

/** Largest amount we will ever send: 10,000,000.00 LYD, far above any cart, far below `Number.MAX_SAFE_INTEGER`. */
const MAX_AMOUNT_MINOR = 1_000_000_000;

/** A non-negative integer count of minor units (1/100 LYD). */
export type MinorUnits = number;

/**
 * Asserts that `value` is a usable amount in minor units.
 * @throws RangeError when it is not a safe, non-negative integer no larger than {@link MAX_AMOUNT_MINOR}.
 */
function assertMinorUnits(value: number, what = "amount"): asserts value is MinorUnits {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_AMOUNT_MINOR) {
    throw new RangeError(
      `${what} must be an integer number of minor units between 0 and ${MAX_AMOUNT_MINOR}; got ${value}`,
    );
  }
}

/**
 * Formats minor units as the spec's wire amount: `1250` → `"12.50"`, `5` → `"0.05"` (docs/payment-service.md,
 * "Creating a payment" `amount`). Integer arithmetic only, so no binary-float rounding can creep in.
 * @throws RangeError when `minor` is not a valid amount (see {@link assertMinorUnits}).
 */
export function toWireAmount(minor: MinorUnits): string {
  assertMinorUnits(minor);
  const major = Math.trunc(minor / MINOR_UNITS_PER_MAJOR);
  const cents = minor % MINOR_UNITS_PER_MAJOR;
  return `${major}.${String(cents).padStart(2, "0")}`;
}

/**
 * Parses a decimal amount that may come as a JSON number or as text — `103.75`, `"103.75"`, `103.7`, `100` — into
 * minor units, exactly: the number's shortest decimal form is read as text, so `103.75` is `10375` and never
 * `10374.999…`. Used for the webhook's numeric `amount`.
 * @returns the amount in minor units, or `null` for more than two decimals, a negative or non-finite number, or text
 *   that is not a plain decimal.
 */
export function fromDecimalAmount(value: number | string): MinorUnits | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const match = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const minor = Number(match[1]) * MINOR_UNITS_PER_MAJOR + Number((match[2] ?? "").padEnd(2, "0"));
  return minor <= MAX_AMOUNT_MINOR ? minor : null;
}

/**
 * Multiplies a unit price by a quantity, staying in integers.
 * @throws RangeError when the result is not a valid amount.
 */
export function multiply(unitMinor: MinorUnits, quantity: number): MinorUnits {
  if (!Number.isSafeInteger(quantity) || quantity < 0)
    throw new RangeError(`quantity must be a non-negative integer; got ${quantity}`);
  const total = unitMinor * quantity;
  assertMinorUnits(total, "line total");
  return total;
}

/**
 * Adds amounts in minor units.
 * @throws RangeError when the sum is not a valid amount.
 */
export function sum(amounts: readonly MinorUnits[]): MinorUnits {
  const total = amounts.reduce((acc, amount) => acc + amount, 0);
  assertMinorUnits(total, "total");
  return total;
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats minor units for people, e.g. `formatMoney(1250, "en")` → `"LYD 12.50"`, `formatMoney(1250, "ar")` →
 * `"‏12.50 د.ل.‏"` (digits as the locale writes them). Always two decimals, matching what the payment page shows.
 */
export function formatMoney(minor: MinorUnits, locale = "en"): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale === "ar" ? "ar-LY" : "en-LY", {
      style: "currency",
      currency: CURRENCY,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(locale, formatter);
  }
  // Dividing for display only: the result is never fed back into arithmetic.
  return formatter.format(minor / MINOR_UNITS_PER_MAJOR);
}

/**
 * A discount as its line shows it: minus the amount, `formatDiscount(425, "en")` → `"-LYD 4.25"` (a code that took
 * nothing off, a free-delivery code on a pickup, reads `LYD 0.00`, never "-0.00").
 */
export function formatDiscount(minor: MinorUnits, locale = "en"): string {
  return formatMoney(minor === 0 ? 0 : -minor, locale);
}

/** What is wrong with an amount as a person typed it (see {@link parseTypedAmount}). */
export type AmountProblem = "missing" | "amount" | "amount_ambiguous" | "amount_decimals" | "amount_negative";

/** Arabic-Indic and Persian digits as ASCII ones, and the Arabic decimal and thousands separators as `.` and `,`. */
export function westernDigits(value: string): string {
  return value
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, ".")
    .replace(/\u066c/g, ",");
}

/**
 * An amount in LYD as a person types it — a merchant's price, a row of the merchant dashboard's list — in minor
 * units: `103.75`, `103,75`, `1.234,50`, `1 234.50`, Arabic digits, with or without `LYD` or `د.ل`. The last separator
 * is the decimal one when it is followed by one or two digits; groups of three digits may be separated by spaces,
 * apostrophes, or whichever of `,` and `.` is not the decimal separator. A single separator followed by exactly three
 * digits (`1,234`) could be either, and is refused rather than guessed.
 * @returns minor units, or what is wrong.
 */
export function parseTypedAmount(value: string): MinorUnits | AmountProblem {
  if (!value.trim()) return "missing";
  let text = westernDigits(value)
    .replace(/[\u200e\u200f\u061c]/g, "")
    .toLowerCase()
    .replace(/lyd|ld|د\.?\s?ل\.?|دينار/g, "")
    .replace(/[\s\u00a0\u202f']/g, "");
  if (/^[-\u2212(]/.test(text)) return "amount_negative";
  text = text.replace(/^\+/, "");
  if (!/^\d[\d.,]*\d$|^\d$/.test(text)) return "amount";
  const last = Math.max(text.lastIndexOf("."), text.lastIndexOf(","));
  let whole = text;
  let fraction = "";
  if (last >= 0) {
    const separator = text[last]!;
    const before = text.slice(0, last);
    const after = text.slice(last + 1);
    const other = separator === "." ? "," : ".";
    // Both kinds: the last is the decimal one (1,234.50, 1.234,50). The same one twice: grouping (1,234,567).
    const decimal = before.includes(other) || (!before.includes(separator) && after.length !== 3);
    if (!before.includes(other) && !before.includes(separator) && after.length === 3) return "amount_ambiguous";
    if (decimal) {
      if (after.length > 2) return "amount_decimals";
      whole = before;
      fraction = after;
    }
    const grouping = new Set(whole.match(/[.,]/g) ?? []);
    if (grouping.size > 1 || (grouping.size === 1 && !/^\d{1,3}(?:[.,]\d{3})+$/.test(whole))) return "amount";
    whole = whole.replace(/[.,]/g, "");
  }
  const minor = fromDecimalAmount(`${whole.replace(/^0+(?=\d)/, "")}${fraction ? `.${fraction}` : ""}`);
  return minor ?? "amount";
}
