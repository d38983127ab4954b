import { getTranslations } from "next-intl/server";
import type { DeliveryFormLabels } from "@/components/admin/delivery-forms";
import type { PickupField, ZoneField } from "@/lib/delivery/editing";

/** The zone form's texts in the admin's language, for the new city's page and the edit page. */
export async function zoneFormLabels(mode: "create" | "save"): Promise<DeliveryFormLabels<ZoneField>> {
  const t = await getTranslations("admin.delivery.zoneForm");
  return {
    fields: {
      nameEn: t("fields.nameEn"),
      nameAr: t("fields.nameAr"),
      fee: t("fields.fee"),
      freeAbove: t("fields.freeAbove"),
      enabled: t("fields.enabled"),
      cashOnDelivery: t("fields.cashOnDelivery"),
      sortOrder: t("fields.sortOrder"),
    },
    hints: { fee: t("hints.fee"), freeAbove: t("hints.freeAbove"), sortOrder: t("hints.sortOrder") },
    submit: t(mode),
    submitting: t(mode === "create" ? "creating" : "saving"),
  };
}

/** The pickup form's texts in the admin's language. */
export async function pickupFormLabels(): Promise<DeliveryFormLabels<PickupField>> {
  const t = await getTranslations("admin.delivery.pickup");
  return {
    fields: {
      enabled: t("fields.enabled"),
      addressEn: t("fields.addressEn"),
      addressAr: t("fields.addressAr"),
      hoursEn: t("fields.hoursEn"),
      hoursAr: t("fields.hoursAr"),
    },
    hints: {
      addressEn: t("hints.address"),
      addressAr: t("hints.address"),
      hoursEn: t("hints.hours"),
      hoursAr: t("hints.hours"),
    },
    submit: t("save"),
    submitting: t("saving"),
  };
}
