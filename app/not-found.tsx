import { getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/empty-state";
import { ShopChrome } from "@/components/shop-chrome";

/** Any URL the app does not know, in the shop's frame. */
export default async function NotFound() {
  const t = await getTranslations("notFound");
  return (
    <ShopChrome>
      <EmptyState title={t("title")} text={t("text")} action={t("back")} href="/" />
    </ShopChrome>
  );
}
