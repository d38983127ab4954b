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

/**
 * The back office's writes to delivery (app/admin/delivery). Each checks the admin first and goes through
 * lib/delivery/editing.ts (one transaction with its audit row); the checkout reads the database on every request, so
 * the next order uses the change. A form that is refused comes back with a message on each field and what was typed.
 */

/** What a delivery form shows after a refused submission: the message of each field, and what was typed. */
export interface DeliveryFormState<Field extends string> {
  message?: string;
  fieldErrors?: Partial<Record<Exclude<Field, "enabled">, string>>;
  values: Partial<Record<Exclude<Field, "enabled">, string>> & { enabled?: boolean };
}

/** A zone form's state. */
export type ZoneFormState = DeliveryFormState<ZoneField>;
/** The pickup form's state. */
export type PickupFormState = DeliveryFormState<PickupField>;

const ZONE_TEXT_FIELDS = ["nameEn", "nameAr", "fee", "freeAbove", "sortOrder"] as const satisfies ZoneField[];
const PICKUP_TEXT_FIELDS = ["addressEn", "addressAr", "hoursEn", "hoursAr"] as const satisfies PickupField[];

/** The form's text fields as typed (cut at a length no field allows), and its `enabled` checkbox. */
function formValues<Field extends string>(form: FormData, fields: readonly Field[]) {
  const values: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.slice(0, 1_000);
  }
  return { ...values, enabled: form.get("enabled") === "on" };
}

/** Each field's first problem, in the admin's language. */
async function fieldErrorsOf<Field extends string>(error: z.ZodError, fields: readonly Field[]) {
  const t = await getTranslations("admin.delivery.problems");
  const issues = z.flattenError(error).fieldErrors as Record<string, string[] | undefined>;
  const fieldErrors: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const problem = issues[field]?.[0] as DeliveryProblem | undefined;
    if (problem) fieldErrors[field] = t(problem);
  }
  return fieldErrors;
}

/**
 * "Add the city" or "Save changes" (form field `id` for an edit; `nameEn`, `nameAr`, `fee`, `freeAbove`, `sortOrder`;
 * `enabled` a checkbox). Parsed with lib/delivery/editing.ts's schema; on success, to the zones' list with what was
 * done; a name another city has comes back on its field.
 */
export async function saveZoneAction(_previous: ZoneFormState, form: FormData): Promise<ZoneFormState> {
  const admin = await requireAdmin();
  const values = formValues(form, ZONE_TEXT_FIELDS);
  const idField = form.get("id");
  const id = idField === null ? undefined : parseZoneId(idField);
  if (idField !== null && id === undefined) redirect("/admin/delivery?result=not_found");
  const parsed = zoneInputSchema.safeParse(values);
  const t = await getTranslations("admin.delivery");
  if (!parsed.success) {
    return {
      values,
      fieldErrors: await fieldErrorsOf(parsed.error, ZONE_TEXT_FIELDS),
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
  const values = formValues(form, PICKUP_TEXT_FIELDS);
  const parsed = pickupInputSchema.safeParse(values);
  if (!parsed.success) {
    const t = await getTranslations("admin.delivery.pickup");
    return { values, fieldErrors: await fieldErrorsOf(parsed.error, PICKUP_TEXT_FIELDS), message: t("fixFields") };
  }
  const { changed } = await editPickup(getDb(), parsed.data, admin.email);
  logger.info({ event: "admin_pickup_edited", enabled: parsed.data.enabled, changed });
  redirect(`/admin/delivery?result=${changed.length > 0 ? "pickup_saved" : "unchanged"}#pickup`);
}
