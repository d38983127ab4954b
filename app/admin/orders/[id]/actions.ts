"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { resendEmail } from "@/lib/orders/outbox";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { ORDER_FLAGS } from "@/lib/db/schema";
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
