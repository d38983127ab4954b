import { getTranslations } from "next-intl/server";
import type { ProductFormLabels } from "@/components/admin/product-form";
import type { StockFormLabels } from "@/components/admin/stock-form";
import { PRODUCT_FIELDS, type ProductField } from "@/lib/catalog/editing";

/** The product form's texts in the admin's language, for the new product's page and the edit page. */
export async function productFormLabels(mode: "create" | "save"): Promise<ProductFormLabels> {
  const t = await getTranslations("admin.products.form");
  return {
    fields: Object.fromEntries(PRODUCT_FIELDS.map((field) => [field, t(`fields.${field}`)])) as Record<
      ProductField,
      string
    >,
    hints: {
      slug: t("hints.slug"),
      price: t("hints.price"),
      stock: t("hints.stock"),
      sortOrder: t("hints.sortOrder"),
      maxPerOrder: t("hints.maxPerOrder"),
    },
    kinds: { physical: t("kinds.physical"), digital: t("kinds.digital") },
    submit: t(mode),
    submitting: t(mode === "create" ? "creating" : "saving"),
  };
}

/** The stock form's texts in the admin's language. */
export async function stockFormLabels(): Promise<StockFormLabels> {
  const t = await getTranslations("admin.products.stock");
  return {
    mode: t("mode"),
    modes: { change: t("modes.change"), set: t("modes.set"), untracked: t("modes.untracked") },
    amount: t("amount"),
    amountHint: t("amountHint"),
    reason: t("reason"),
    reasonHint: t("reasonHint"),
    submit: t("submit"),
    submitting: t("submitting"),
  };
}
