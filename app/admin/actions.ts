"use server";

import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";
import { endAdminSession, orUnavailable, requireAdmin, signIn, startAdminSession } from "@/lib/admin/auth";
import { clientIp } from "@/lib/client-address";
import { linkTokenSchema, parseCredentials, parseLinkRequest } from "@/lib/admin/sign-in-form";
import { requestSignInLink, signInWithLink } from "@/lib/admin/sign-in-links";
import { sendSignInLinkAfterResponse } from "@/lib/email/sign-in-link";
import { isLocale } from "@/lib/i18n/config";
import { z } from "zod";
import { FULFILMENT_STEPS } from "@/lib/db/schema";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { sendPendingSmsAfterResponse } from "@/lib/sms/delivery";
import { recordFulfilmentStep } from "@/lib/orders/fulfilment";
import { ORDER_ID } from "@/lib/ids";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";

/**
 * Signs an admin in (form fields `email`, `password`) and opens the orders; a wrong e-mail or password, too many
 * failures, or too many sign-ins being checked at once come back to the sign-in page with a message that never says
 * which of the two was wrong. A form without both fields, or with an e-mail that is not an address, is answered
 * before anything else.
 */
export async function signInAction(form: FormData): Promise<void> {
  const parsed = parseCredentials(form);
  if (!parsed.ok) redirect(`/admin/sign-in?error=${parsed.error}`);
  const ip = await clientIp();
  const result = await orUnavailable(() => signIn(getDb(), { email: parsed.email, password: parsed.password, ip }));
  logger.info({ event: "admin_sign_in", ok: result.ok, reason: result.ok ? undefined : result.reason });
  if (result.ok) await startAdminSession(result.admin, result.sessionVersion);
  if (!result.ok)
    redirect(
      result.reason === "locked"
        ? `/admin/sign-in?error=locked&minutes=${result.retryAfterMinutes}`
        : `/admin/sign-in?error=${result.reason}`,
    );
  redirect("/admin");
}

/**
 * Signs the admin out: this browser's cookie always, and on the server every copy of it (lib/admin/auth.ts). The page
 * says which: with the database down, only this browser.
 */
export async function signOutAction(): Promise<void> {
  const { everywhere } = await endAdminSession();
  redirect(`/admin/sign-in?signed-out=${everywhere ? "everywhere" : "this-browser"}`);
}

/**
 * Asks for a one-time sign-in link (form field `email`) and says it is on its way, whether or not the e-mail has an
 * account; the e-mail goes out after the response (lib/admin/sign-in-links.ts).
 */
export async function requestSignInLinkAction(form: FormData): Promise<void> {
  const parsed = parseLinkRequest(form);
  if (!parsed.ok) redirect(`/admin/sign-in/link?error=${parsed.error}`);
  const ip = await clientIp();
  const result = await orUnavailable(() => requestSignInLink(getDb(), { email: parsed.email, ip }));
  logger.info({ event: "admin_sign_in_link_requested", ok: result.ok });
  if (!result.ok) redirect(`/admin/sign-in/link?error=limited&minutes=${result.retryAfterMinutes}`);
  if (result.link) {
    const locale = await getLocale();
    sendSignInLinkAfterResponse(result.link, isLocale(locale) ? locale : "en");
  }
  redirect("/admin/sign-in/link?sent=1");
}

/** Signs an admin in with the one-time link of form field `token` (the link's page posts it), and opens the orders. */
export async function signInWithLinkAction(form: FormData): Promise<void> {
  const token = linkTokenSchema.safeParse(form.get("token"));
  const result = token.success
    ? await orUnavailable(async () => signInWithLink(getDb(), { token: token.data, ip: await clientIp() }))
    : ({ ok: false, reason: "used_or_expired" } as const);
  logger.info({ event: "admin_sign_in_link_used", ok: result.ok });
  if (!result.ok) redirect("/admin/sign-in/link?error=usedOrExpired");
  await startAdminSession(result.admin, result.sessionVersion);
  redirect("/admin");
}

const stepSchema = z.object({ id: z.string().regex(ORDER_ID), step: z.enum(FULFILMENT_STEPS) });

/**
 * Records a step of the goods' way (form fields `id`, `step`, and `notify` — the "e-mail the customer" checkbox,
 * `on` when ticked) as the signed-in admin (lib/orders/fulfilment.ts), sends the step's e-mail after the redirect when
 * one was queued, and says on the order page how it went.
 */
export async function fulfilmentStepAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "").slice(0, 64);
  const parsed = stepSchema.safeParse({ id, step: form.get("step") });
  const outcome = parsed.success
    ? await recordFulfilmentStep(getDb(), id, parsed.data.step, {
        by: admin.email,
        notify: form.get("notify") === "on",
      })
    : ({ result: "not_found" } as const);
  logger.info({ event: "admin_fulfilment_step", orderId: id, step: parsed.data?.step, ...outcome });
  if (outcome.result === "done" && outcome.emailed) sendPendingEmailsAfterResponse();
  if (outcome.result === "done") sendPendingSmsAfterResponse(); // connects only when a message is due
  const result =
    outcome.result === "done"
      ? `${parsed.data!.step}${outcome.emailed ? "&emailed=1" : ""}`
      : outcome.result === "not_paid" || outcome.result === "not_found"
        ? outcome.result
        : `step_${outcome.result}`;
  redirect(`/admin/orders/${encodeURIComponent(id)}?result=${result}`);
}
