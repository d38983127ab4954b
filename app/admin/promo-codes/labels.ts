import { getTranslations } from "next-intl/server";
import type { PromoCodeFormLabels } from "@/components/admin/promo-code-form";
import { PROMO_CODE_KINDS } from "@/lib/db/schema";

/** The code form's texts in the admin's language, for the new code's page and the edit page. */
export async function promoCodeFormLabels(mode: "create" | "save"): Promise<PromoCodeFormLabels> {
  const t = await getTranslations("admin.promo.form");
  return {
    fields: {
      code: t("fields.code"),
      kind: t("fields.kind"),
      value: t("fields.value"),
      minLines: t("fields.minLines"),
      startsAt: t("fields.startsAt"),
      endsAt: t("fields.endsAt"),
      maxUses: t("fields.maxUses"),
      maxUsesPerCustomer: t("fields.maxUsesPerCustomer"),
      enabled: t("fields.enabled"),
    },
    kinds: Object.fromEntries(
      PROMO_CODE_KINDS.map((kind) => [kind, t(`kinds.${kind}`)]),
    ) as PromoCodeFormLabels["kinds"],
    hints: {
      code: t("hints.code"),
      value: t("hints.value"),
      minLines: t("hints.minLines"),
      startsAt: t("hints.startsAt"),
      endsAt: t("hints.endsAt"),
      maxUses: t("hints.maxUses"),
      maxUsesPerCustomer: t("hints.maxUsesPerCustomer"),
    },
    submit: t(mode),
    submitting: t(mode === "create" ? "creating" : "saving"),
  };
}
