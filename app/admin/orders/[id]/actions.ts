"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { resendEmail } from "@/lib/orders/outbox";
import { resendSms } from "@/lib/orders/sms-outbox";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { sendPendingSmsAfterResponse } from "@/lib/sms/delivery";
import { DELIVERY_FAILURES, ORDER_FLAGS } from "@/lib/db/schema";
import {
  collectCash,
  confirmCashOrder,
  recordDeliveryFailed,
  recordReturned,
  sendOutAgain,
  type CashMoveResult,
} from "@/lib/cash/moves";
import { blockPhone, unblockPhone } from "@/lib/cash/phones";
import { parseTypedAmount } from "@/lib/money";
import { logger } from "@/lib/log";
import { resolveFlag } from "@/lib/orders/flags";
import { ORDER_ID } from "@/lib/ids";
import { settle } from "@/lib/orders/settle";

/** Printable text without control characters (a NUL cannot even be stored), trimmed, within `max` characters. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !/\p{Cc}/u.test(value));

const markPaidSchema = z.object({
  id: z.string().max(64),
  reference: text(100).pipe(z.string().min(1)),
  note: text(500),
});

/**
 * "Mark as paid": the merchant saw this payment paid in the merchant dashboard although its webhook never arrived
 * (form fields `id`, `reference` — the dashboard's transaction reference, required — and an optional `note`).
 * Goes through the settlement table like every other move: an order awaiting confirmation, expired or cancelled
 * becomes paid and is flagged `paid_manually`; the event records the admin, the reference and the note. The mark
 * resolves the flags it answers (`unconfirmed_report` and its own; lib/orders/settle.ts, `RESOLVED_BY_MARK`).
 */
export async function markPaidAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const parsed = markPaidSchema.safeParse({ id, reference: form.get("reference") ?? "", note: form.get("note") ?? "" });
  if (!parsed.success) redirect(`/admin/orders/${encodeURIComponent(id)}?result=reference_missing`);
  const { reference, note } = parsed.data;
  const settlement = await settle(getDb(), id, {
    kind: "marked_paid",
    by: admin.email,
    reference,
    ...(note ? { note } : {}),
  });
  const result = !settlement ? "not_found" : settlement.changed ? "marked_paid" : "cannot_mark_paid";
  logger.info({ event: "admin_mark_paid", orderId: id, result });
  // The receipt and the merchant's notice the move queued (lib/orders/outbox.ts) go out after the redirect.
  if (result === "marked_paid") sendPendingEmailsAfterResponse();
  if (result === "marked_paid") sendPendingSmsAfterResponse();
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}

const resendSchema = z.object({ id: z.string().regex(ORDER_ID), kind: z.enum(["receipt", "merchant_notice"]) });

/**
 * "Send it again" (form fields `id` and `kind`: `receipt` or `merchant_notice`): queues another receipt to the
 * customer, or another notice to the merchant, for a paid order, as the signed-in admin, and sends it after the
 * redirect. The order page says how it went; the history shows the e-mail.
 */
export async function resendEmailAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const parsed = resendSchema.safeParse({ id, kind: form.get("kind") });
  const outcome = parsed.success
    ? await resendEmail(getDb(), id, parsed.data.kind, admin.email)
    : ("not_found" as const);
  logger.info({ event: "admin_resend_email", orderId: id, kind: parsed.data?.kind, result: outcome });
  if (outcome === "queued") sendPendingEmailsAfterResponse();
  const result =
    outcome === "email_off" || outcome === "not_found"
      ? outcome
      : `${parsed.data?.kind === "merchant_notice" ? "notice" : "receipt"}_${outcome}`;
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}

const resendSmsSchema = z.object({ id: z.string().regex(ORDER_ID), message: z.coerce.number().int().positive() });

/**
 * "Send it again" for a text message that failed or was not delivered (form fields `id`, the order, and `message`,
 * its outbox id): puts it back on its way as the signed-in admin (lib/orders/sms-outbox.ts, `resendSms`) and sends it
 * after the redirect. The order page says how it went; the history shows each attempt.
 */
export async function resendSmsAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const parsed = resendSmsSchema.safeParse({ id, message: form.get("message") });
  const outcome = parsed.success
    ? await resendSms(getDb(), id, parsed.data.message, admin.email)
    : ("not_found" as const);
  logger.info({ event: "admin_resend_sms", orderId: id, message: parsed.data?.message, result: outcome });
  if (outcome === "queued") sendPendingSmsAfterResponse();
  const result = { queued: "sms_queued", not_failed: "sms_not_failed", sms_off: "sms_off", not_found: "not_found" }[
    outcome
  ];
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}

const resolveSchema = z.object({
  id: z.string().regex(ORDER_ID),
  flag: z.enum(ORDER_FLAGS),
  note: text(500).pipe(z.string().min(1)),
});

/**
 * "Mark as dealt with" (form fields `id`, `flag` and `note`, required: what the admin did about it): resolves one
 * flag of the order as the signed-in admin (lib/orders/flags.ts), so the order leaves the "flagged" list; the flag
 * and its resolution stay in the order's history. The order page says how it went.
 */
export async function resolveFlagAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const parsed = resolveSchema.safeParse({ id, flag: form.get("flag"), note: form.get("note") ?? "" });
  const problem = parsed.error?.issues[0]?.path[0];
  const outcome = parsed.success
    ? await resolveFlag(getDb(), id, parsed.data.flag, { by: admin.email, note: parsed.data.note })
    : problem === "id"
      ? "not_found"
      : problem === "flag"
        ? "not_flagged"
        : "note_missing";
  const result = (
    {
      resolved: "flag_resolved",
      already_resolved: "flag_already_resolved",
      not_flagged: "flag_not_raised",
      not_found: "not_found",
      note_missing: "note_missing",
    } as const
  )[outcome];
  logger.info({ event: "admin_resolve_flag", orderId: id, flag: parsed.data?.flag, result });
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}

/** The most a collection may say (integer minor units): an order's total fits in the database's `integer`. */
const MOST_COLLECTED_MINOR = 2_000_000_000;

const cashNote = text(500);
const cashMoveSchema = z.discriminatedUnion("move", [
  z.object({ move: z.literal("confirm"), note: cashNote }),
  z.object({ move: z.literal("delivery_failed"), reason: z.enum(DELIVERY_FAILURES), note: cashNote }),
  z.object({ move: z.literal("out_again"), note: cashNote }),
  z.object({ move: z.literal("returned"), note: cashNote }),
  z.object({
    move: z.literal("collect"),
    amount: z
      .string()
      .max(40)
      .transform((typed) => parseTypedAmount(typed))
      .pipe(z.number().int().positive().max(MOST_COLLECTED_MINOR)),
    note: cashNote,
  }),
]);

/**
 * A move of a cash order from its "Cash on delivery" panel (lib/cash/moves.ts), as the signed-in admin: form fields
 * `id`, `move` (confirm, delivery_failed, out_again, returned, collect), `note` (optional), `reason` (delivery_failed:
 * one of DELIVERY_FAILURES) and `amount` (collect: LYD as typed,
 * `77.50`). The order page says how it went: done, already done (another tab), not from where the order stands, too
 * late to confirm, or what is wrong with the form.
 */
export async function cashMoveAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const field = (name: string) => form.get(name) ?? undefined;
  const parsed = ORDER_ID.test(id)
    ? cashMoveSchema.safeParse({
        move: field("move"),
        note: field("note") ?? "",
        reason: field("reason"),
        amount: field("amount") ?? "",
      })
    : undefined;
  if (!parsed?.success) {
    const problem = parsed?.error.issues[0]?.path[0];
    const result = problem === "reason" || problem === "amount" || problem === "note" ? `cash_${problem}` : "not_found";
    redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
  }
  const db = getDb();
  const input = parsed.data;
  const by = { by: admin.email, ...(input.note ? { note: input.note } : {}) };
  const outcome: CashMoveResult =
    input.move === "confirm"
      ? await confirmCashOrder(db, id, by)
      : input.move === "delivery_failed"
        ? await recordDeliveryFailed(db, id, { ...by, reason: input.reason })
        : input.move === "out_again"
          ? await sendOutAgain(db, id, by)
          : input.move === "returned"
            ? await recordReturned(db, id, by)
            : await collectCash(db, id, { ...by, amountMinor: input.amount });
  logger.info({ event: "admin_cash_move", orderId: id, move: input.move, result: outcome.result });
  if (outcome.result === "done" && input.move === "confirm") sendPendingSmsAfterResponse();
  const result =
    outcome.result === "done"
      ? `cash_${input.move}`
      : outcome.result === "not_found"
        ? "not_found"
        : `cash_${outcome.result}`;
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}

const phoneBlockSchema = z.object({
  id: z.string().regex(ORDER_ID),
  phone: z.string().max(40),
  block: z.enum(["block", "unblock"]),
  note: text(500),
});

/**
 * Blocks the order's phone from paying cash, or allows it again (form fields `id` — the order whose page it is —
 * `phone`, `block`: `block` or `unblock`, and an optional `note`: why), as the signed-in admin, audited
 * (lib/cash/phones.ts). The order page says how it went.
 */
export async function phoneBlockAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const parsed = phoneBlockSchema.safeParse({
    id,
    phone: form.get("phone") ?? "",
    block: form.get("block"),
    note: form.get("note") ?? "",
  });
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.path[0];
    redirect(`/admin/orders/${encodeURIComponent(id)}?result=${problem === "note" ? "cash_note" : "phone_invalid"}`);
  }
  const { phone, block, note } = parsed.data;
  const outcome = await (block === "block" ? blockPhone : unblockPhone)(getDb(), phone, { by: admin.email, note });
  logger.info({ event: "admin_phone_block", orderId: id, block, result: outcome });
  const result = {
    done: block === "block" ? "phone_blocked" : "phone_unblocked",
    already: block === "block" ? "phone_already_blocked" : "phone_not_blocked",
    invalid: "phone_invalid",
  }[outcome];
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}
