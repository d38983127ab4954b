/**
 * Strings from outside (a webhook body, a search box) on their way into PostgreSQL. `text` and `jsonb` cannot hold
 * U+0000, and `jsonb` refuses a lone UTF-16 surrogate: a value carrying one fails its whole statement, which the
 * visitor meets as a 500 (a search) or the payment service as a 503 on every retry (a webhook). Those characters
 * become U+FFFD, the replacement character, as a decoder does with bytes it cannot read.
 */

/** U+0000, or half of a surrogate pair without its other half. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EVERY_UNSTORABLE = new RegExp(UNSTORABLE.source, "g");

/** Whether PostgreSQL can store this string as `text` and inside `jsonb`. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** The string with every character PostgreSQL cannot store replaced by U+FFFD. */
function storableText(value: string): string {
  return value.replace(EVERY_UNSTORABLE, "\uFFFD");
}

/** A JSON-like value (objects, arrays, strings, numbers…) with every string in it, keys included, made storable. */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item) => storableJson(item)) as T;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)])) as T;
  }
  return value;
}
