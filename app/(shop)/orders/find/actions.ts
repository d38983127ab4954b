"use server";

import { redirect } from "next/navigation";
import { clientIp } from "@/lib/client-address";
import { getDb } from "@/lib/db/client";
import { describeDbFailure, isDbUnavailable } from "@/lib/db/errors";
import { getEnv, smsSettings } from "@/lib/env";
import { logger } from "@/lib/log";
import { parseLookupCode, parseOrderNumber, requestLookupCode, verifyLookupCode } from "@/lib/orders/lookup";
import { orderLinkKey } from "@/lib/orders/order-link";
import { normaliseLibyanMobile } from "@/lib/phone";
import { getSession } from "@/lib/session";
import { sendLookupCodeAfterResponse } from "@/lib/sms/lookup-code";

const PAGE = "/orders/find";

/** Runs a step that needs the database; when it cannot be reached, back to the page with "try again in a moment". */
async function orUnavailable<T>(step: () => Promise<T>, back: string): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isDbUnavailable(error)) throw error;
    logger.error({ event: "order_lookup_unavailable", ...describeDbFailure(error) });
    redirect(`${back}error=unavailable`);
  }
}

/**
 * Asks for a code (form fields `order`, `phone`; lib/orders/lookup.ts): a malformed order number or a phone that is
 * not a Libyan mobile is answered on its field; a spent budget with the minutes to wait; anything else with "if that
 * order was placed with that phone, we texted a code to it", the request kept in this browser's session and the code
 * texted after the response.
 */
export async function requestLookupCodeAction(form: FormData): Promise<void> {
  if (!smsSettings()) redirect(PAGE);
  const orderId = parseOrderNumber(String(form.get("order") ?? "").slice(0, 100));
  if (!orderId) redirect(`${PAGE}?error=orderNumber`);
  const phone = normaliseLibyanMobile(String(form.get("phone") ?? "").slice(0, 40));
  if (!phone) redirect(`${PAGE}?error=phone&order=${orderId}`);
  const clientAddress = await clientIp();
  const result = await orUnavailable(() => requestLookupCode(getDb(), { orderId, phone, clientAddress }), `${PAGE}?`);
  logger.info({ event: "order_lookup_requested", ok: result.ok });
  if (!result.ok) redirect(`${PAGE}?error=limited&minutes=${result.retryAfterMinutes}`);
  const session = await getSession();
  session.lookupId = result.lookupId;
  await session.save();
  if (result.code) sendLookupCodeAfterResponse(result.code);
  redirect(`${PAGE}?sent=1`);
}

/**
 * Checks the code of form field `code` against this browser's request: the right one opens the order's page as its
 * signed link shows it; a wrong one says how many tries are left; a used, expired or dead request says to ask again.
 */
export async function verifyLookupCodeAction(form: FormData): Promise<void> {
  const code = parseLookupCode(String(form.get("code") ?? "").slice(0, 40));
  if (!code) redirect(`${PAGE}?sent=1&error=code`);
  const session = await getSession();
  const lookupId = session.lookupId;
  if (lookupId === undefined) redirect(`${PAGE}?error=expired`);
  const result = await orUnavailable(() => verifyLookupCode(getDb(), { lookupId, code }), `${PAGE}?sent=1&`);
  logger.info({ event: "order_lookup_verified", ok: result.ok, reason: result.ok ? undefined : result.reason });
  if (!result.ok && result.reason === "wrong_code") redirect(`${PAGE}?sent=1&error=wrongCode&left=${result.triesLeft}`);
  delete session.lookupId;
  await session.save();
  if (!result.ok) redirect(`${PAGE}?error=expired`);
  redirect(`/orders/${result.orderId}?key=${orderLinkKey(result.orderId, getEnv().ORDER_LINK_SECRET)}`);
}
