import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getFormatter, getTranslations } from "next-intl/server";
import { z } from "zod";
import { TextLink } from "@/components/admin/page-header";
import { FileFormat, FormatColumns, UploadForm, UploadPage } from "@/components/admin/upload-form";
import { requireAdmin } from "@/lib/admin/auth";
import { CSV_COLUMNS, MAX_CATALOG_CSV_BYTES, recentCatalogImports } from "@/lib/catalog/csv";
import { getDb } from "@/lib/db/client";
import { checkCatalogCsvAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.products.csv"))("importTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const errorSchema = z.enum(["empty", "too_large", "not_text"]);

/**
 * The catalogue's CSV, step one: the export to start from, the upload that leads to the file's dry run
 * (`[id]/page.tsx`), what the file's columns hold, where its pictures go (../pictures, by file name), and the files
 * uploaded lately.
 */
export default async function ImportProductsPage({ searchParams }: Props) {
  await requireAdmin();
  const [query, t, tList, format, imports] = await Promise.all([
    searchParams,
    getTranslations("admin.products.csv"),
    getTranslations("admin.products.list"),
    getFormatter(),
    recentCatalogImports(getDb()),
  ]);
  const error = errorSchema.safeParse(query.error);
  const kb = MAX_CATALOG_CSV_BYTES / 1024;
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });

  return (
    <UploadPage
      title={t("importTitle")}
      intro={t("importIntro")}
      error={error.success ? t(`errors.${error.data}`, { kb }) : undefined}
      more={
        <p>
          {/* A download, not a page: a plain link, so that the browser saves the file. */}
          <a
            href="/admin/products/export"
            download
            className="font-medium text-brand-800 underline underline-offset-2"
            data-testid="catalog-export"
          >
            {t("export")}
          </a>
          <span className="ms-2 text-sm text-stone-600">{t("exportHelp")}</span>
        </p>
      }
    >
      <UploadForm
        action={checkCatalogCsvAction}
        formatId="csv-format"
        fileLabel={t("file", { kb })}
        required
        submit={t("check")}
        pending={t("checking")}
        help={t("checkHelp")}
      />

      <FileFormat id="csv-format" title={t("formatTitle")}>
        <p className="mt-1">{t("format")}</p>
        <p className="mt-1">{t("stockRule")}</p>
        <FormatColumns
          caption={t("columnsCaption")}
          headings={[t("column"), t("meaning")]}
          rows={CSV_COLUMNS.map((column) => ({
            key: column,
            name: (
              <code dir="ltr" className="rounded bg-stone-100 px-1">
                {column}
              </code>
            ),
            meaning: t(`columns.${column}`),
          }))}
        />
      </FileFormat>

      <section aria-labelledby="csv-pictures" className="max-w-3xl text-sm text-stone-700">
        <h2 id="csv-pictures" className="font-semibold text-stone-900">
          {t("picturesTitle")}
        </h2>
        <p className="mt-1">{t("pictures")}</p>
        <p className="mt-1">
          <TextLink href="/admin/products/pictures" data-testid="bulk-pictures-link">
            {tList("addPictures")}
          </TextLink>
        </p>
      </section>

      {imports.length > 0 && (
        <section aria-labelledby="recent-imports" className="text-sm">
          <h2 id="recent-imports" className="font-semibold">
            {t("recent")}
          </h2>
          <ul className="mt-1 space-y-1">
            {imports.map((item) => (
              <li key={item.id}>
                <PageLink
                  href={`/admin/products/import/${item.id}`}
                  className="text-brand-800 underline underline-offset-2"
                >
                  {t("recentItem", {
                    file: item.fileName ?? t("untitled"),
                    by: item.createdBy,
                    when: when(item.createdAt),
                  })}
                </PageLink>{" "}
                <span className="text-stone-600">({item.appliedAt ? t("recentApplied") : t("recentChecked")})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </UploadPage>
  );
}
