"use server";

import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import {
  createZone,
  editPickup,
  editZone,
  parseZoneId,
  pickupInputSchema,
  zoneInputSchema,
  type DeliveryProblem,
  type PickupField,
  type ZoneField,
} from "@/lib/delivery/editing";
import { logger } from "@/lib/log";
import { fieldErrorsOf, formValues, type SettingsFormState } from "./form-state";

/**
 * The back office's writes to delivery (app/admin/delivery). Each checks the admin first and goes through
 * lib/delivery/editing.ts (one transaction with its audit row); the checkout reads the database on every request, so
 * the next order uses the change. A form that is refused comes back with a message on each field and what was typed.
 */

/** A zone form's state: its checkboxes are `enabled` and `cashOnDelivery`. */
export type ZoneFormState = SettingsFormState<ZoneField, ZoneFlag>;
/** The pickup form's state. */
export type PickupFormState = SettingsFormState<PickupField>;

/** The zone form's checkboxes. */
export type ZoneFlag = "enabled" | "cashOnDelivery";

const ZONE_TEXT_FIELDS = ["nameEn", "nameAr", "fee", "freeAbove", "sortOrder"] as const satisfies ZoneField[];
const ZONE_FLAGS = ["enabled", "cashOnDelivery"] as const satisfies ZoneFlag[];
const PICKUP_TEXT_FIELDS = ["addressEn", "addressAr", "hoursEn", "hoursAr"] as const satisfies PickupField[];

/** Each field's first problem, in the admin's language. */
async function deliveryFieldErrors<Field extends string>(error: z.ZodError, fields: readonly Field[]) {
  const t = await getTranslations("admin.delivery.problems");
  return fieldErrorsOf(error, fields, (problem) => t(problem as DeliveryProblem));
}

/**
 * "Add the city" or "Save changes" (form field `id` for an edit; `nameEn`, `nameAr`, `fee`, `freeAbove`, `sortOrder`;
 * `enabled` and `cashOnDelivery` checkboxes). Parsed with lib/delivery/editing.ts's schema; on success, to the zones' list with what was
 * done; a name another city has comes back on its field.
 */
export async function saveZoneAction(_previous: ZoneFormState, form: FormData): Promise<ZoneFormState> {
  const admin = await requireAdmin();
  const values = formValues(form, ZONE_TEXT_FIELDS, ZONE_FLAGS);
  const idField = form.get("id");
  const id = idField === null ? undefined : parseZoneId(idField);
  if (idField !== null && id === undefined) redirect("/admin/delivery?result=not_found");
  const parsed = zoneInputSchema.safeParse(values);
  const t = await getTranslations("admin.delivery");
  if (!parsed.success) {
    return {
      values,
      fieldErrors: await deliveryFieldErrors(parsed.error, ZONE_TEXT_FIELDS),
      message: t("zoneForm.fixFields"),
    };
  }
  const result =
    id === undefined
      ? await createZone(getDb(), parsed.data, admin.email)
      : await editZone(getDb(), id, parsed.data, admin.email);
  logger.info({
    event: id === undefined ? "admin_zone_created" : "admin_zone_edited",
    zoneId: "id" in result ? result.id : id,
    result: result.ok ? "ok" : result.problem,
  });
  if (!result.ok && result.problem !== "not_found") {
    const field = result.problem === "nameEnTaken" ? "nameEn" : "nameAr";
    return { values, fieldErrors: { [field]: t(`problems.${result.problem}`) }, message: t("zoneForm.fixFields") };
  }
  if (!result.ok) redirect("/admin/delivery?result=not_found");
  if ("id" in result) redirect("/admin/delivery?result=zone_created");
  redirect(`/admin/delivery?result=${result.changed.length > 0 ? "zone_saved" : "unchanged"}`);
}

/**
 * "Save pickup" (`enabled` a checkbox; `addressEn`, `addressAr`, required when on; `hoursEn`, `hoursAr`). On success,
 * to the delivery page's pickup section with what was done.
 */
export async function savePickupAction(_previous: PickupFormState, form: FormData): Promise<PickupFormState> {
  const admin = await requireAdmin();
  const values = formValues(form, PICKUP_TEXT_FIELDS, ["enabled"]);
  const parsed = pickupInputSchema.safeParse(values);
  if (!parsed.success) {
    const t = await getTranslations("admin.delivery.pickup");
    return {
      values,
      fieldErrors: await deliveryFieldErrors(parsed.error, PICKUP_TEXT_FIELDS),
      message: t("fixFields"),
    };
  }
  const { changed } = await editPickup(getDb(), parsed.data, admin.email);
  logger.info({ event: "admin_pickup_edited", enabled: parsed.data.enabled, changed });
  redirect(`/admin/delivery?result=${changed.length > 0 ? "pickup_saved" : "unchanged"}#pickup`);
}
