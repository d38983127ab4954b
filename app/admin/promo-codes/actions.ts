"use server";

import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";
import {
  createPromoCode,
  editPromoCode,
  parsePromoCodeId,
  promoCodeInputSchema,
  type PromoCodeField,
  type PromoProblem,
} from "@/lib/promo-codes/editing";
import { fieldErrorsOf, formValues, type SettingsFormState } from "../delivery/form-state";

/**
 * The back office's writes to promo codes (app/admin/promo-codes). Each checks the admin first and goes through
 * lib/promo-codes/editing.ts (one transaction with its audit row); the checkout reads the database on every request,
 * so the next order uses the change. A form that is refused comes back with a message on each field and what was
 * typed.
 */

/** The code form's state: its checkbox is `enabled`; `kind` comes back as the value of the radio chosen. */
export type PromoCodeFormState = SettingsFormState<PromoCodeField>;

const TEXT_FIELDS = [
  "code",
  "kind",
  "value",
  "minLines",
  "startsAt",
  "endsAt",
  "maxUses",
  "maxUsesPerCustomer",
] as const satisfies PromoCodeField[];

/**
 * "Add the code" or "Save changes" (form field `id` for an edit; `code`, `kind` (`percent`, `amount` or
 * `free_delivery`), `value`, `minLines`, `startsAt`, `endsAt`, `maxUses`, `maxUsesPerCustomer`; the `enabled`
 * checkbox). Parsed with lib/promo-codes/editing.ts's schema; on success, to the codes' list with what was done; a
 * code another already has (any case) comes back on its field.
 */
export async function savePromoCodeAction(_previous: PromoCodeFormState, form: FormData): Promise<PromoCodeFormState> {
  const admin = await requireAdmin();
  const values = formValues(form, TEXT_FIELDS, ["enabled"]);
  const idField = form.get("id");
  const id = idField === null ? undefined : parsePromoCodeId(idField);
  if (idField !== null && id === undefined) redirect("/admin/promo-codes?result=not_found");
  const parsed = promoCodeInputSchema.safeParse(values);
  const t = await getTranslations("admin.promo");
  if (!parsed.success) {
    return {
      values,
      fieldErrors: fieldErrorsOf(parsed.error, TEXT_FIELDS, (problem) => t(`problems.${problem as PromoProblem}`)),
      message: t("form.fixFields"),
    };
  }
  const result =
    id === undefined
      ? await createPromoCode(getDb(), parsed.data, admin.email)
      : await editPromoCode(getDb(), id, parsed.data, admin.email);
  logger.info({
    event: id === undefined ? "admin_promo_code_created" : "admin_promo_code_edited",
    codeId: "id" in result ? result.id : id,
    result: result.ok ? "ok" : result.problem,
  });
  if (!result.ok && result.problem === "code_taken") {
    return { values, fieldErrors: { code: t("problems.codeTaken") }, message: t("form.fixFields") };
  }
  if (!result.ok) redirect("/admin/promo-codes?result=not_found");
  if ("id" in result) redirect("/admin/promo-codes?result=created");
  redirect(`/admin/promo-codes?result=${result.changed.length > 0 ? "saved" : "unchanged"}`);
}
