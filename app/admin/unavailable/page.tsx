import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { DatabaseUnavailable } from "@/components/database-unavailable";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.notSaved"))("title") };
}

/**
 * Where a back-office post goes when the database could not be reached (lib/admin/auth.ts, `requireAdmin`). While it
 * still cannot be, the layout shows what every page of the back office shows then; once it answers again, this says
 * that what was sent was not saved, with the way back.
 */
export default async function NotSavedPage() {
  const t = await getTranslations("admin.notSaved");
  return <DatabaseUnavailable title={t("title")} text={t("text")} reload={t("back")} href="/admin" />;
}
