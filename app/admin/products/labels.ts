import { getTranslations } from "next-intl/server";
import { formLabels } from "@/components/admin/labels";
import type { ProductFormLabels } from "@/components/admin/product-form";
import type { StockFormLabels } from "@/components/admin/stock-form";
import { PRODUCT_FIELDS } from "@/lib/catalog/editing";

/** The product form's texts in the admin's language, for the new product's page and the edit page. */
export async function productFormLabels(mode: "create" | "save"): Promise<ProductFormLabels> {
  const t = await getTranslations("admin.products.form");
  return {
    ...formLabels(t, PRODUCT_FIELDS, ["slug", "price", "stock", "sortOrder", "maxPerOrder"] as const, mode),
    kinds: { physical: t("kinds.physical"), digital: t("kinds.digital") },
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
