import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { FormPage } from "@/components/admin/page-header";
import { PromoCodeForm } from "@/components/admin/promo-code-form";
import { requireAdmin } from "@/lib/admin/auth";
import { promoCodeFormLabels } from "../labels";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.promo.form"))("newTitle") };
}

/**
 * A new promo code: the code, what it takes off and how much, the minimum products total, when it starts and ends
 * (Libya's time), its limits, on or off (on unless changed).
 */
export default async function NewPromoCodePage() {
  await requireAdmin();
  const [t, labels] = await Promise.all([getTranslations("admin.promo"), promoCodeFormLabels("create")]);
  return (
    <FormPage back={{ href: "/admin/promo-codes", label: t("back") }} title={t("form.newTitle")}>
      <PromoCodeForm initial={{ enabled: true, kind: "percent" }} labels={labels} />
    </FormPage>
  );
}
