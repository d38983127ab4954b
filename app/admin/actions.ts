"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { clientIp, endAdminSession, requireAdmin, signIn, startAdminSession } from "@/lib/admin/auth";
import { fulfilOrder } from "@/lib/orders/fulfilment";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";

const credentialsSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1_000),
});

/**
 * Signs an admin in (form fields `email`, `password`) and opens the orders; a wrong e-mail or password, too many
 * failures, or too many sign-ins being checked at once come back to the sign-in page with a message that never says
 * which of the two was wrong.
 */
export async function signInAction(form: FormData): Promise<void> {
  const parsed = credentialsSchema.safeParse({ email: form.get("email"), password: form.get("password") });
  if (!parsed.success) redirect("/admin/sign-in?error=missing");
  const result = await signIn(getDb(), { ...parsed.data, ip: await clientIp() });
  logger.info({ event: "admin_sign_in", ok: result.ok, reason: result.ok ? undefined : result.reason });
  if (result.ok) await startAdminSession(result.admin, result.sessionVersion);
  if (!result.ok)
    redirect(
      result.reason === "locked"
        ? `/admin/sign-in?error=locked&minutes=${result.retryAfterMinutes}`
        : `/admin/sign-in?error=${result.reason}`,
    );
  redirect("/admin/orders");
}

/**
 * Signs the admin out: this browser's cookie always, and on the server every copy of it (lib/admin/auth.ts). The page
 * says which: with the database down, only this browser.
 */
export async function signOutAction(): Promise<void> {
  const { everywhere } = await endAdminSession();
  redirect(`/admin/sign-in?signed-out=${everywhere ? "everywhere" : "this-browser"}`);
}

/** Marks the order of form field `id` as fulfilled, as the signed-in admin; says on the order page how it went. */
export async function fulfilAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "");
  const result = await fulfilOrder(getDb(), id, admin.email);
  logger.info({ event: "admin_fulfil", orderId: id, result });
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}
