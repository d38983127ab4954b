/**
 * Validation of the `POST /payment/create` body, in the style of the real service (a Laravel application):
 * one message per failing field, in field order; each field reports the first rule it breaks.
 * Strings are trimmed and empty strings count as missing, as Laravel's default middleware does.
 */
import { CURRENCIES, GATEWAYS } from "./config";
import type { ApiMessages, Field } from "./i18n";

/** A validated create request. Optional fields are `null` when not sent. */
export interface CreateRequest {
  amount: string;
  currency: string;
  return_url: string;
  cancel_url: string;
  custom: string | null;
  full_name: string | null;
  email: string | null;
  phone: string | null;
  payment_gateway: string | null;
}

export type ValidationResult = { ok: true; value: CreateRequest } | { ok: false; errors: string[] };

const MAX_TEXT = 255;
const MAX_URL = 2048;
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const TWO_DECIMALS = /^\d+\.\d{2}$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/;
const PHONE_CHARS = /^\+?[\d\s().-]+$/;

type Rule = (value: string, m: ApiMessages, field: Field) => string | null;

const maxLength =
  (max: number): Rule =>
  (value, m, field) =>
    value.length > max ? m.maxLength(field, max) : null;

const numeric: Rule = (value, m, field) => (NUMERIC.test(value) ? null : m.numeric(field));
const positive: Rule = (value, m, field) => (Number(value) > 0 ? null : m.greaterThanZero(field));
const twoDecimals: Rule = (value, m) => (TWO_DECIMALS.test(value) ? null : m.amountFormat);
const oneOf =
  (allowed: readonly string[]): Rule =>
  (value, m, field) =>
    allowed.includes(value) ? null : m.invalidChoice(field);
const httpUrl: Rule = (value, m, field) => (isHttpUrl(value) ? null : m.url(field));
const email: Rule = (value, m, field) => (EMAIL.test(value) ? null : m.email(field));
const phone: Rule = (value, m, field) => (isPhone(value) ? null : m.phone(field));

/** Field → [required?, rules after the implicit "must be a string"]. */
const SCHEMA: Record<Field, { required: boolean; rules: Rule[] }> = {
  amount: { required: true, rules: [numeric, positive, twoDecimals] },
  currency: { required: true, rules: [oneOf(CURRENCIES)] },
  return_url: { required: true, rules: [maxLength(MAX_URL), httpUrl] },
  cancel_url: { required: true, rules: [maxLength(MAX_URL), httpUrl] },
  custom: { required: false, rules: [maxLength(MAX_TEXT)] },
  full_name: { required: false, rules: [maxLength(MAX_TEXT)] },
  email: { required: false, rules: [maxLength(MAX_TEXT), email] },
  phone: { required: false, rules: [maxLength(32), phone] },
  payment_gateway: { required: false, rules: [oneOf(GATEWAYS.map((g) => g.alias))] },
};

/** Validates a parsed JSON body. Unknown fields are ignored, as the real service does. */
export function validateCreateRequest(body: Record<string, unknown>, m: ApiMessages): ValidationResult {
  const errors: string[] = [];
  const value: Record<string, string | null> = {};

  for (const [field, { required, rules }] of Object.entries(SCHEMA) as [Field, (typeof SCHEMA)[Field]][]) {
    const raw = body[field];
    const text = typeof raw === "string" ? raw.trim() : raw;
    value[field] = null;
    if (text === undefined || text === null || text === "") {
      if (required) errors.push(m.required(field));
      continue;
    }
    if (typeof text !== "string") {
      errors.push(m.string(field));
      continue;
    }
    const message = rules.map((rule) => rule(text, m, field)).find((result) => result !== null);
    if (message) errors.push(message);
    else value[field] = text;
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: value as unknown as CreateRequest };
}

/** An absolute `http:` or `https:` URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Loose phone check: digits with optional `+`, spaces, dashes, dots or brackets; 7 to 15 digits. */
function isPhone(value: string): boolean {
  if (!PHONE_CHARS.test(value)) return false;
  const digits = value.replace(/\D/g, "");
  return digits.length >= 7 && digits.length <= 15;
}

/**
 * Formats a Libyan number in international form for display (`0912345678` → `+218 91 234 5678`),
 * as the real page pre-fills it. Other numbers are returned unchanged.
 */
export function formatLibyanPhone(value: string): string {
  let digits = value.replace(/\D/g, "");
  if (digits.startsWith("00218")) digits = digits.slice(5);
  else if (digits.startsWith("218")) digits = digits.slice(3);
  else if (value.trim().startsWith("+")) return value;
  if (digits.startsWith("0")) digits = digits.slice(1);
  if (!/^9\d{8}$/.test(digits)) return value;
  return `+218 ${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5)}`;
}

/** A canonical string of a JSON value (object keys sorted), so that key order does not make two bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
