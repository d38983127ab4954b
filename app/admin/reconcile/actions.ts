"use server";

import { redirect } from "next/navigation";
import { requireAdmin } from "@/lib/admin/auth";
import { applyPaymentList, LIST_ID, storePaymentList } from "@/lib/admin/reconcile";
import { uploadedFile } from "@/lib/csv";
import { getDb } from "@/lib/db/client";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { logger } from "@/lib/log";

/**
 * "Check the list": stores the merchant dashboard's list of payments the admin pasted (form field `list`) or uploaded
 * (`file`, which wins when both are given), and opens its check (the dry run). Nothing about an order changes here.
 */
export async function checkPaymentListAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const pasted = form.get("list");
  const result = await storePaymentList(getDb(), {
    pasted: typeof pasted === "string" ? pasted : undefined,
    file: await uploadedFile(form, "file"),
    by: admin.email,
  });
  logger.info({ event: "admin_payment_list", result: "id" in result ? "stored" : result.error });
  redirect("id" in result ? `/admin/reconcile/${result.id}` : `/admin/reconcile?error=${result.error}`);
}

/**
 * "Apply the list" (form field `id`): marks paid, as the signed-in admin, every order the stored list shows paid in
 * the dashboard that the shop has not (lib/admin/reconcile.ts), and sends their e-mails after the redirect.
 */
export async function applyPaymentListAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "");
  const { outcome, marked } = LIST_ID.test(id)
    ? await applyPaymentList(getDb(), id, admin.email)
    : { outcome: "not_found" as const, marked: 0 };
  logger.info({ event: "admin_apply_payment_list", listId: id.slice(0, 64), result: outcome, marked });
  if (marked > 0) sendPendingEmailsAfterResponse();
  redirect(`/admin/reconcile/${encodeURIComponent(id.slice(0, 64))}?result=${outcome}`);
}
