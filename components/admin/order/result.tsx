import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { FULFILMENT_STEPS } from "@/lib/db/schema";
import { Notice } from "../section";

/** Results of the order page's actions that say something was done. */
const DONE = [...FULFILMENT_STEPS, "marked_paid", "receipt_queued", "notice_queued", "flag_resolved"] as const;

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
  "flag_already_resolved",
  "flag_not_raised",
  "note_missing",
]);

/**
 * The line that says what the merchant's last action on the order did (`result`, from the query), and whether the
 * customer was e-mailed (`emailed` = "1"); nothing for an unknown or missing result.
 */
export async function OrderResult({ result, emailed }: { result: unknown; emailed: unknown }) {
  const parsed = resultSchema.safeParse(result);
  if (!parsed.success) return null;
  const t = await getTranslations("admin.order");
  const done = (DONE as readonly string[]).includes(parsed.data);
  return (
    <Notice tone={done ? "done" : "warning"}>
      {t(`results.${parsed.data}`)}
      {done && emailed === "1" && <> {t("results.emailed")}</>}
    </Notice>
  );
}
