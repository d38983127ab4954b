import { getTranslations } from "next-intl/server";
import type { DeliveryFormLabels } from "@/components/admin/delivery-forms";
import { formLabels } from "@/components/admin/labels";
import { pickupInputSchema, zoneInputSchema, type PickupField, type ZoneField } from "@/lib/delivery/editing";

/** The zone form's texts in the admin's language, for the new city's page and the edit page. */
export async function zoneFormLabels(mode: "create" | "save"): Promise<DeliveryFormLabels<ZoneField>> {
  return formLabels(
    await getTranslations("admin.delivery.zoneForm"),
    zoneInputSchema.keyof().options,
    ["fee", "freeAbove", "sortOrder"] as const,
    mode,
  );
}

/** The pickup form's texts in the admin's language. */
export async function pickupFormLabels(): Promise<DeliveryFormLabels<PickupField>> {
  const t = await getTranslations("admin.delivery.pickup");
  // Both languages' fields share one hint each.
  const [address, hours] = [t("hints.address"), t("hints.hours")];
  return {
    ...formLabels(t, pickupInputSchema.keyof().options, [], "save"),
    hints: { addressEn: address, addressAr: address, hoursEn: hours, hoursAr: hours },
  };
}
