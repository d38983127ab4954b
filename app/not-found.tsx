import { getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/empty-state";

export default async function NotFound() {
  const t = await getTranslations("notFound");
  return <EmptyState title={t("title")} text={t("text")} action={t("back")} href="/" />;
}
