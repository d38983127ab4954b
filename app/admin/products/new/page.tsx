import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { BackLink, PageHeader } from "@/components/admin/page-header";
import { ProductForm } from "@/components/admin/product-form";
import { requireAdmin } from "@/lib/admin/auth";
import { productFormLabels } from "../labels";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.products.form"))("newTitle") };
}

/** A new product: its fields, then its page (pictures, stock, history). */
export default async function NewProductPage() {
  await requireAdmin();
  const [t, labels] = await Promise.all([getTranslations("admin.products.form"), productFormLabels("create")]);
  return (
    <section className="space-y-4">
      <BackLink href="/admin/products" small>
        {t("back")}
      </BackLink>
      <PageHeader title={t("newTitle")} />
      <ProductForm initial={{ visible: true, kind: "physical" }} labels={labels} />
    </section>
  );
}
