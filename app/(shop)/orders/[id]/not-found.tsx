import { getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/empty-state";

/**
 * An order this browser may not see, with status 404: one that does not exist, another session's without a valid
 * signed link, a tampered or truncated link. The same words for all, so a guess learns nothing.
 */
export default async function OrderNotFound() {
  const t = await getTranslations("order");
  return <EmptyState title={t("notFoundTitle")} text={t("notFoundText")} action={t("toCart")} href="/cart" />;
}
