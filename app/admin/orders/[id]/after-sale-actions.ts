"use server";

import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { CANCEL_REASONS } from "@/lib/db/schema";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { sendPendingSmsAfterResponse } from "@/lib/sms/delivery";
import { ORDER_ID } from "@/lib/ids";
import { isLocale } from "@/lib/i18n/config";
import { logger } from "@/lib/log";
import { formatMoney, parseTypedAmount, westernDigits } from "@/lib/money";
import { cancelOrder } from "@/lib/refunds/cancel";
import type { NotDone } from "@/lib/refunds/order";
import { openRefund, recordRefund } from "@/lib/refunds/refunds";
import { recordReturn } from "@/lib/refunds/returns";

/**
 * The order page's after-sale forms (components/admin/order/after-sale.tsx): cancel, refund, record a refund made,
 * return. Each checks the admin, reads its form with zod, and calls lib/refunds/ — which holds every rule (what may be
 * cancelled, what is left to refund, what came back) — then goes back to the order page with what was done. A form
 * the rules or zod refuse comes back with a message on its field and what was typed; nothing is written then.
 */

/** What an after-sale form shows after a refused submission: the summary, each field's message, what was typed. */
export interface AfterSaleFormState {
  message?: string;
  fieldErrors?: Record<string, string>;
  values: Record<string, string | boolean>;
}

/** An after-sale form's server action, as useActionState takes it. */
export type AfterSaleAction = (previous: AfterSaleFormState, form: FormData) => Promise<AfterSaleFormState>;

/** Printable text without control characters (a NUL cannot even be stored), trimmed, within `max` characters. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !/\p{Cc}/u.test(value));

/** The most an amount may say (integer minor units): an order's total fits in the database's `integer`. */
const MOST_MINOR = 2_000_000_000;

/** An amount in LYD as typed (`12.50`, Arabic digits too) → minor units, more than 0. */
const amount = z
  .string()
  .max(40)
  .transform((typed) => parseTypedAmount(typed))
  .pipe(z.number().int().positive().max(MOST_MINOR));

/** A whole quantity as typed (Arabic digits too): empty is 0. */
const quantity = z
  .string()
  .trim()
  .max(9)
  .transform((typed) => (typed === "" ? 0 : Number(westernDigits(typed))))
  .pipe(z.number().int().min(0).max(100_000));

/** Every form's own: the order, the request key the page rendered (a repeated post makes one move), the note. */
const common = {
  id: z.string().regex(ORDER_ID),
  key: z.uuid(),
  note: text(500),
};

/** The {@link common} fields of a form, to parse with its own. */
const commonFields = (form: FormData) => ({ id: form.get("id"), key: form.get("key"), note: form.get("note") ?? "" });

/**
 * What a move made from a form records of its asking: the note (if any), the admin, the request key, whether the
 * customer is told.
 */
const asked = (data: { note: string; key: string }, by: string, notify: boolean) => ({
  note: data.note || undefined,
  by,
  key: data.key,
  notify,
});

/** What was typed into the form, to give back with its messages; boxes as ticked. */
function typedValues(form: FormData, boxes: string[]): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const [name, value] of form)
    if (typeof value === "string" && !name.startsWith("$ACTION")) values[name] = value.slice(0, 1_000);
  for (const box of boxes) values[box] = form.get(box) === "on";
  return values;
}

/** The order lines' quantities of a form: `<prefix><position>` fields, as typed. */
function lineFields(form: FormData, prefix: string): [number, string][] {
  const lines: [number, string][] = [];
  for (const [name, value] of form) {
    const position = /^\d{1,4}$/.test(name.slice(prefix.length)) ? Number(name.slice(prefix.length)) : NaN;
    if (name.startsWith(prefix) && Number.isInteger(position) && typeof value === "string")
      lines.push([position, value]);
  }
  return lines.slice(0, 500);
}

/** The problems' messages in the admin's language, and money written in it. */
type Problems = Awaited<ReturnType<typeof problemsText>>;
async function problemsText() {
  const [t, locale] = await Promise.all([getTranslations("admin.afterSale.problems"), getLocale()]);
  return { t, money: (minor: number) => formatMoney(minor, isLocale(locale) ? locale : "en") };
}

/** The form back with its messages: the summary and `errors` by field. */
function refused(
  p: Problems,
  values: AfterSaleFormState["values"],
  errors: Record<string, string>,
): AfterSaleFormState {
  return { message: p.t("fix"), fieldErrors: errors, values };
}

/** Which message a field's problem gets (lib/i18n/messages: `admin.afterSale.problems`). */
const PROBLEM_OF = {
  reason: "reason",
  amount: "amount",
  refund: "amount",
  reference: "reference",
  note: "note",
  lines: "quantity",
} as const;

/**
 * Each refused field's message, for zod's first issue on it: a line's quantity on its own field (`<prefix><position>`
 * of `lines`, as typed), the others by their name.
 */
function fieldErrors(
  p: Problems,
  error: z.ZodError,
  lines: [number, string][] = [],
  prefix = "",
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { path } of error.issues) {
    const [field = "", index] = path.map(String);
    const name = field === "lines" ? `${prefix}${lines[Number(index)]?.[0] ?? ""}` : field;
    errors[name] ??= p.t(PROBLEM_OF[field as keyof typeof PROBLEM_OF] ?? "note");
  }
  return errors;
}

/**
 * The form back when lib/refunds/ refused what it asked: an amount above what is left to refund (the message on
 * `amountField`), or more units of a line than are left on it (on each such `<prefix><position>`); null when it did not.
 */
function refusedByRules(
  p: Problems,
  values: AfterSaleFormState["values"],
  outcome: { result: "done" } | NotDone,
  amountField: string,
  prefix: string,
): AfterSaleFormState | null {
  if (outcome.result === "over_limit")
    return refused(p, values, { [amountField]: p.t("overLimit", { left: p.money(outcome.leftMinor) }) });
  if (outcome.result !== "bad_lines") return null;
  return refused(
    p,
    values,
    Object.fromEntries(
      outcome.lines.map(({ position, leftQuantity }) => [
        `${prefix}${position}`,
        p.t("lineOver", { max: leftQuantity }),
      ]),
    ),
  );
}

const orderPage = (id: string, result: string, emailed = false) =>
  `/admin/orders/${encodeURIComponent(id)}?result=${result}${emailed ? "&emailed=1" : ""}`;

/**
 * An after-sale move's end: the e-mail it queued goes out (`emailed`), and the admin goes back to the order page with
 * what happened — `done` (the move's own result: `order_cancelled`, `refund_recorded`…) when it was made, `not_found`,
 * else `<kind>_<result>` (`cancel_already`, `refund_too_late`…).
 */
function backToOrder(id: string, result: string, done: string, kind: string, emailed: boolean): never {
  if (emailed) {
    sendPendingEmailsAfterResponse();
    sendPendingSmsAfterResponse();
  }
  redirect(
    orderPage(id, result === "done" ? done : result === "not_found" ? "not_found" : `${kind}_${result}`, emailed),
  );
}

/**
 * A post whose hidden fields (the order, the request key, the refund) are not the page's — forged, or cut — is no form
 * to correct: back to the order page, which says there is no such order.
 */
function notThisPage(form: FormData, error: z.ZodError, hidden = ["id", "key"]): void {
  if (error.issues.some(({ path }) => hidden.includes(String(path[0]))))
    redirect(orderPage(String(form.get("id") ?? "").slice(0, 64), "not_found"));
}

const cancelSchema = z.object({ ...common, reason: z.enum(CANCEL_REASONS) });

/**
 * "Cancel the order" (fields `id`, `key`, `reason` — one of CANCEL_REASONS —, `note`, `notify` box): lib/refunds/cancel.ts
 * cancels it for good, its units back once; a paid online order opens a refund to make. A cancel is once by the
 * order's own state (a second post answers "already"), so the key only has to be the page's. Back to the order page.
 */
export async function cancelOrderAction(_previous: AfterSaleFormState, form: FormData): Promise<AfterSaleFormState> {
  const admin = await requireAdmin();
  const values = typedValues(form, ["notify"]);
  const parsed = cancelSchema.safeParse({ ...commonFields(form), reason: form.get("reason") ?? undefined });
  if (!parsed.success) {
    notThisPage(form, parsed.error);
    const p = await problemsText();
    return refused(p, values, fieldErrors(p, parsed.error));
  }
  const { id, reason, note } = parsed.data;
  const notify = form.get("notify") === "on";
  const outcome = await cancelOrder(getDb(), id, { reason, note: note || undefined, by: admin.email, notify });
  logger.info({ event: "admin_cancel_order", orderId: id, reason, result: outcome.result });
  backToOrder(id, outcome.result, "order_cancelled", "cancel", outcome.result === "done" && notify);
}

const refundSchema = z.object({
  ...common,
  amount,
  reference: text(100),
  lines: z.array(z.tuple([z.number(), quantity])),
});

/**
 * "Refund" (fields `id`, `key`, `amount` in LYD as typed, `line_<position>` quantities — optional, for lines —,
 * `reference` — optional: with one the refund is recorded as made, without it waits as a refund to make —, `note`,
 * `notify`): lib/refunds/refunds.ts opens it, never above what is left to refund. Back to the order page.
 */
export async function refundAction(_previous: AfterSaleFormState, form: FormData): Promise<AfterSaleFormState> {
  const admin = await requireAdmin();
  const values = typedValues(form, ["notify"]);
  const typedLines = lineFields(form, "line_");
  const parsed = refundSchema.safeParse({
    ...commonFields(form),
    amount: form.get("amount") ?? "",
    reference: form.get("reference") ?? "",
    lines: typedLines,
  });
  const p = await problemsText();
  if (!parsed.success) {
    notThisPage(form, parsed.error);
    return refused(p, values, fieldErrors(p, parsed.error, typedLines, "line_"));
  }
  const { id, reference, lines } = parsed.data;
  const notify = form.get("notify") === "on";
  const outcome = await openRefund(getDb(), id, {
    amountMinor: parsed.data.amount,
    lines: lines.filter(([, count]) => count > 0).map(([position, count]) => ({ position, quantity: count })),
    reference: reference || undefined,
    ...asked(parsed.data, admin.email, notify),
  });
  logger.info({ event: "admin_refund", orderId: id, result: outcome.result });
  const refusal = refusedByRules(p, values, outcome, "amount", "line_");
  if (refusal) return refusal;
  const recorded = outcome.result === "done" && Boolean(reference);
  backToOrder(id, outcome.result, recorded ? "refund_recorded" : "refund_opened", "refund", recorded && notify);
}

const recordSchema = z.object({
  id: z.string().regex(ORDER_ID),
  refund: z.coerce.number().int().positive(),
  reference: text(100).pipe(z.string().min(1)),
});

/**
 * "Record refund" of a refund to make (fields `id` — the order —, `refund`, `reference` — required: what the
 * payment service's dashboard gave —, `notify`): lib/refunds/refunds.ts records it once, whatever the tabs. Back to the
 * order page.
 */
export async function recordRefundAction(_previous: AfterSaleFormState, form: FormData): Promise<AfterSaleFormState> {
  const admin = await requireAdmin();
  const values = typedValues(form, ["notify"]);
  const parsed = recordSchema.safeParse({
    id: form.get("id"),
    refund: form.get("refund"),
    reference: form.get("reference") ?? "",
  });
  if (!parsed.success) {
    notThisPage(form, parsed.error, ["id", "refund"]);
    const p = await problemsText();
    const typed = String(form.get("reference") ?? "").trim();
    return refused(p, values, { reference: p.t(typed ? "reference" : "referenceMissing") });
  }
  const { id, refund, reference } = parsed.data;
  const notify = form.get("notify") === "on";
  const outcome = await recordRefund(getDb(), refund, { reference, by: admin.email, notify });
  logger.info({ event: "admin_record_refund", orderId: id, refund, result: outcome.result });
  backToOrder(id, outcome.result, "refund_recorded", "refund", outcome.result === "done" && notify);
}

const returnSchema = z.object({
  ...common,
  lines: z.array(z.tuple([z.number(), quantity])),
  refund: z.union([z.literal("").transform(() => null), amount]),
  reference: text(100),
});

/**
 * "Record the return" (fields `id`, `key`, `back_<position>` — how many of the line came back —, `restock_<position>`
 * boxes — back into the stock, ticked by default —, `refund` in LYD — optional —, `reference`, `note`, `notify`):
 * lib/refunds/returns.ts records what came back, its stock once, and the refund with it. Back to the order page.
 */
export async function returnAction(_previous: AfterSaleFormState, form: FormData): Promise<AfterSaleFormState> {
  const admin = await requireAdmin();
  const typedLines = lineFields(form, "back_");
  const values = typedValues(form, ["notify", ...typedLines.map(([position]) => `restock_${position}`)]);
  const parsed = returnSchema.safeParse({
    ...commonFields(form),
    lines: typedLines,
    refund: form.get("refund") ?? "",
    reference: form.get("reference") ?? "",
  });
  const p = await problemsText();
  if (!parsed.success) {
    notThisPage(form, parsed.error);
    return refused(p, values, fieldErrors(p, parsed.error, typedLines, "back_"));
  }
  const { id, lines, refund, reference } = parsed.data;
  const back = lines.filter(([, count]) => count > 0);
  if (back.length === 0) return refused(p, values, { [`back_${lines[0]?.[0] ?? 0}`]: p.t("nothingBack") });
  const notify = form.get("notify") === "on";
  const outcome = await recordReturn(getDb(), id, {
    lines: back.map(([position, count]) => ({
      position,
      quantity: count,
      restock: form.get(`restock_${position}`) === "on",
    })),
    ...(refund === null ? {} : { refund: { amountMinor: refund, ...(reference ? { reference } : {}) } }),
    ...asked(parsed.data, admin.email, notify),
  });
  logger.info({ event: "admin_return", orderId: id, result: outcome.result });
  const refusal = refusedByRules(p, values, outcome, "refund", "back_");
  if (refusal) return refusal;
  const emailed = outcome.result === "done" && notify && refund !== null && Boolean(reference);
  backToOrder(id, outcome.result, "return_recorded", "return", emailed);
}
