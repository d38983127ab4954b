import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { FormPage } from "@/components/admin/page-header";
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
    <FormPage back={{ href: "/admin/products", label: t("back") }} title={t("newTitle")}>
      <ProductForm initial={{ visible: true, kind: "physical" }} labels={labels} />
    </FormPage>
  );
}
