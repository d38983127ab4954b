import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { databaseAnswers } from "@/lib/db/client";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.notSaved"))("title") };
}

/**
 * Where a back-office post goes when the database could not be reached (lib/admin/auth.ts, `orUnavailable`): while it
 * still cannot be, what every page of the back office shows then (app/admin/layout.tsx); once it answers again, that
 * what was sent was not saved, with the way back.
 */
export default async function NotSavedPage() {
  const [t, answers] = await Promise.all([getTranslations("admin"), databaseAnswers()]);
  return answers ? (
    <DatabaseUnavailable
      title={t("notSaved.title")}
      text={t("notSaved.text")}
      reload={t("notSaved.back")}
      href="/admin"
    />
  ) : (
    <DatabaseUnavailable
      title={t("unavailable.title")}
      text={t("unavailable.text")}
      reload={t("unavailable.reload")}
      href="/admin/unavailable"
    />
  );
}
