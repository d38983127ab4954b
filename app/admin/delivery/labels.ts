import { getTranslations } from "next-intl/server";
import type { DeliveryFormLabels } from "@/components/admin/delivery-forms";
import { formLabels } from "@/components/admin/labels";
import { pickupInputSchema, zoneInputSchema, type PickupField, type ZoneField } from "@/lib/delivery/editing";

/** The zone form's texts in the admin's language, for the new city's page and the edit page. */
export async function zoneFormLabels(mode: "create" | "save"): Promise<DeliveryFormLabels<ZoneField>> {
  return formLabels(
    await getTranslations("admin.delivery.zoneForm"),
    zoneInputSchema.keyof().options,
    ["fee", "freeAbove", "sortOrder"],
    mode,
  );
}

/** The pickup form's texts in the admin's language. */
export async function pickupFormLabels(): Promise<DeliveryFormLabels<PickupField>> {
  return formLabels(
    await getTranslations("admin.delivery.pickup"),
    pickupInputSchema.keyof().options,
    { addressEn: "address", addressAr: "address", hoursEn: "hours", hoursAr: "hours" },
    "save",
  );
}
