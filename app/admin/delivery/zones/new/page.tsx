import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ZoneForm } from "@/components/admin/delivery-forms";
import { requireAdmin } from "@/lib/admin/auth";
import { zoneFormLabels } from "../../labels";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.delivery.zoneForm"))("newTitle") };
}

/** A new delivery zone: a city's names, its fee, free delivery from a total, on or off, its place in the list. */
export default async function NewZonePage() {
  await requireAdmin();
  const [t, labels] = await Promise.all([getTranslations("admin.delivery"), zoneFormLabels("create")]);
  return (
    <section className="space-y-4">
      <Link href="/admin/delivery" className="text-sm font-medium text-brand-800 underline underline-offset-2">
        {t("back")}
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">{t("zoneForm.newTitle")}</h1>
      <ZoneForm initial={{ enabled: true }} labels={labels} />
    </section>
  );
}
