"use server";

import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireAdmin } from "@/lib/admin/auth";
import {
  cashSettingsInputSchema,
  editCashSettings,
  type CashProblem,
  type CashSettingsField,
} from "@/lib/cash/editing";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { fieldErrorsOf, formValues, type SettingsFormState } from "../delivery/form-state";

/**
 * The back office's write to cash on delivery's settings (app/admin/cash): it checks the admin first and goes through
 * lib/cash/editing.ts (one transaction with its audit row); the checkout reads the settings on every request, so the
 * next order uses the change. A form that is refused comes back with a message on each field and what was typed.
 */

/** The cash settings form's checkboxes. */
export type CashFlag = "enabled" | "atPickup";
/** The cash settings form's state. */
export type CashFormState = SettingsFormState<CashSettingsField, CashFlag>;

const CASH_TEXT_FIELDS = ["maxTotal", "fee", "confirmWithinHours"] as const satisfies CashSettingsField[];
const CASH_FLAGS = ["enabled", "atPickup"] as const satisfies CashFlag[];

/**
 * "Save cash on delivery" (`enabled`, `atPickup` checkboxes; `maxTotal` and `fee` in LYD as typed, `maxTotal` empty
 * for no limit; `confirmWithinHours`). On success, to the cash page with what was done.
 */
export async function saveCashSettingsAction(_previous: CashFormState, form: FormData): Promise<CashFormState> {
  const admin = await requireAdmin();
  const values = formValues(form, CASH_TEXT_FIELDS, CASH_FLAGS);
  const parsed = cashSettingsInputSchema.safeParse(values);
  if (!parsed.success) {
    const t = await getTranslations("admin.cash");
    return {
      values,
      fieldErrors: fieldErrorsOf(parsed.error, CASH_TEXT_FIELDS, (problem) => t(`problems.${problem as CashProblem}`)),
      message: t("form.fixFields"),
    };
  }
  const { changed } = await editCashSettings(getDb(), parsed.data, admin.email);
  logger.info({ event: "admin_cash_edited", enabled: parsed.data.enabled, changed });
  redirect(`/admin/cash?result=${changed.length > 0 ? "saved" : "unchanged"}`);
}
