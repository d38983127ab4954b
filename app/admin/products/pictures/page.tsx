import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { BulkPicturesForm } from "@/components/admin/bulk-pictures-form";
import { FormPage } from "@/components/admin/page-header";
import { requireAdmin } from "@/lib/admin/auth";
import { MAX_BULK_PICTURES } from "@/lib/catalog/pictures";
import { MAX_BULK_PICTURES_BYTES } from "@/lib/form-limit";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.products.bulkPictures"))("title") };
}

/**
 * Pictures for many products at once (after a CSV import, which carries none): each file goes to the product whose
 * slug is its name, checked as one upload is; the form then lists what happened to each file.
 */
export default async function BulkPicturesPage() {
  await requireAdmin();
  const t = await getTranslations("admin.products.bulkPictures");
  return (
    <FormPage back={{ href: "/admin/products", label: t("back") }} title={t("title")} roomy>
      <div id="bulk-pictures-rules" className="max-w-3xl space-y-2">
        <p>{t("intro")}</p>
        <p>{t("checks")}</p>
        <p className="font-medium">
          {t("limits", { files: MAX_BULK_PICTURES, mb: MAX_BULK_PICTURES_BYTES / 1024 / 1024 })}
        </p>
      </div>
      <BulkPicturesForm
        describedBy="bulk-pictures-rules"
        labels={{
          file: t("file"),
          upload: t("upload"),
          uploading: t("uploading"),
          help: t("help"),
          resultsTitle: t("resultsTitle"),
          caption: t("caption"),
          fileColumn: t("fileColumn"),
          resultColumn: t("resultColumn"),
        }}
      />
    </FormPage>
  );
}
