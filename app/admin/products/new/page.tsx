import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
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
      <Link href="/admin/products" className="text-sm font-medium text-brand-800 underline underline-offset-2">
        {t("back")}
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">{t("newTitle")}</h1>
      <ProductForm initial={{ visible: true, kind: "physical" }} labels={labels} />
    </section>
  );
}
