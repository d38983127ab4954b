import { getTranslations } from "next-intl/server";
import type { ProductFormLabels } from "@/components/admin/product-form";
import type { StockFormLabels } from "@/components/admin/stock-form";

/** The product form's texts in the admin's language, for the new product's page and the edit page. */
export async function productFormLabels(mode: "create" | "save"): Promise<ProductFormLabels> {
  const t = await getTranslations("admin.products.form");
  return {
    fields: {
      slug: t("fields.slug"),
      nameEn: t("fields.nameEn"),
      nameAr: t("fields.nameAr"),
      descriptionEn: t("fields.descriptionEn"),
      descriptionAr: t("fields.descriptionAr"),
      price: t("fields.price"),
      kind: t("fields.kind"),
      visible: t("fields.visible"),
      stock: t("fields.stock"),
      sortOrder: t("fields.sortOrder"),
    },
    hints: {
      slug: t("hints.slug"),
      price: t("hints.price"),
      stock: t("hints.stock"),
      sortOrder: t("hints.sortOrder"),
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
