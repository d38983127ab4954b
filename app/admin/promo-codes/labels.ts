import { getTranslations } from "next-intl/server";
import { formLabels } from "@/components/admin/labels";
import type { PromoCodeFormLabels } from "@/components/admin/promo-code-form";
import { PROMO_CODE_KINDS } from "@/lib/db/schema";

/** The code form's texts in the admin's language, for the new code's page and the edit page. */
export async function promoCodeFormLabels(mode: "create" | "save"): Promise<PromoCodeFormLabels> {
  const t = await getTranslations("admin.promo.form");
  const hinted = ["code", "value", "minLines", "startsAt", "endsAt", "maxUses", "maxUsesPerCustomer"] as const;
  return {
    ...formLabels(t, [...hinted, "kind", "enabled"], hinted, mode),
    kinds: Object.fromEntries(
      PROMO_CODE_KINDS.map((kind) => [kind, t(`kinds.${kind}`)]),
    ) as PromoCodeFormLabels["kinds"],
  };
}
