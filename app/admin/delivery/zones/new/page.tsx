import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ZoneForm } from "@/components/admin/delivery-forms";
import { FormPage } from "@/components/admin/page-header";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { nextZoneSortOrder } from "@/lib/delivery/editing";
import { zoneFormLabels } from "../../labels";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.delivery.zoneForm"))("newTitle") };
}

/**
 * A new delivery zone: a city's names, its fee, free delivery from a total, on or off, its place in the list (after
 * the others unless changed).
 */
export default async function NewZonePage() {
  await requireAdmin();
  const [t, labels, sortOrder] = await Promise.all([
    getTranslations("admin.delivery"),
    zoneFormLabels("create"),
    nextZoneSortOrder(getDb()),
  ]);
  return (
    <FormPage back={{ href: "/admin/delivery", label: t("back") }} title={t("zoneForm.newTitle")}>
      {/* At the end of the checkout's list unless the merchant places it elsewhere. */}
      <ZoneForm initial={{ enabled: true, cashOnDelivery: true, sortOrder: String(sortOrder) }} labels={labels} />
    </FormPage>
  );
}
