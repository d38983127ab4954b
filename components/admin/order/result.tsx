import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { CASH_MOVES } from "@/lib/cash/moves";
import { FULFILMENT_STEPS } from "@/lib/db/schema";
import { Notice } from "../section";

/** Results of the cash panel's actions (components/admin/order/cash.tsx): done, then why not. */
const CASH_DONE = [...CASH_MOVES.map((move) => `cash_${move}` as const), "phone_blocked", "phone_unblocked"] as const;
const CASH_RESULTS = [
  ...CASH_DONE,
  "cash_already",
  "cash_not_allowed",
  "cash_too_late",
  "cash_reason",
  "cash_amount",
  "cash_note",
  "phone_already_blocked",
  "phone_not_blocked",
  "phone_invalid",
] as const;

/** Results of the after-sale forms (components/admin/order/after-sale.tsx): done, then why not. */
const AFTER_SALE_DONE = ["order_cancelled", "refund_opened", "refund_recorded", "return_recorded"] as const;
const AFTER_SALE_RESULTS = [
  ...AFTER_SALE_DONE,
  "cancel_already",
  "cancel_not_allowed",
  "refund_already",
  "refund_not_allowed",
  "return_already",
  "return_not_allowed",
] as const;

/** Results of the order page's actions that say something was done. */
const DONE = [
  ...FULFILMENT_STEPS,
  "marked_paid",
  "receipt_queued",
  "notice_queued",
  "sms_queued",
  "flag_resolved",
  ...CASH_DONE,
  ...AFTER_SALE_DONE,
] as const;

/** What an action on the order page came back with (`?result=`): done, or why not. */
const resultSchema = z.enum([
  ...DONE,
  "step_already",
  "step_skipped",
  "step_wrong_way",
  "not_paid",
  "not_found",
  "cannot_mark_paid",
  "reference_missing",
  "receipt_pending",
  "receipt_not_paid",
  "receipt_no_recipient",
  "notice_pending",
  "notice_not_paid",
  "notice_no_recipient",
  "email_off",
  "sms_not_failed",
  "sms_off",
  "flag_already_resolved",
  "flag_not_raised",
  "note_missing",
  ...CASH_RESULTS,
  ...AFTER_SALE_RESULTS,
]);

const oneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

/**
 * The line that says what the merchant's last action on the order did (`result`, from the query), and whether the
 * customer was e-mailed (`emailed` = "1"); nothing for an unknown or missing result.
 */
export async function OrderResult({ result, emailed }: { result: unknown; emailed: unknown }) {
  const parsed = resultSchema.safeParse(result);
  if (!parsed.success) return null;
  const [t, tAfterSale] = await Promise.all([getTranslations("admin.order"), getTranslations("admin.afterSale")]);
  const done = (DONE as readonly string[]).includes(parsed.data);
  const said = parsed.data;
  return (
    <Notice tone={done ? "done" : "warning"} testId="order-result">
      {oneOf(CASH_RESULTS, said)
        ? t(`cash.results.${said}`)
        : oneOf(AFTER_SALE_RESULTS, said)
          ? tAfterSale(`results.${said}`)
          : t(`results.${said}`)}
      {done && emailed === "1" && <> {t("results.emailed")}</>}
    </Notice>
  );
}
