import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { TextLink, NotFound, PageHeader } from "@/components/admin/page-header";
import { Problems } from "@/components/admin/problems";
import { Notice, Section } from "@/components/admin/section";
import { columnsOf, Table } from "@/components/admin/table";
import { card } from "@/components/styles";
import { SubmitButton } from "@/components/submit-button";
import { requireAdmin } from "@/lib/admin/auth";
import {
  CSV_COLUMNS,
  findCatalogImport,
  MAX_CATALOG_CSV_ROWS,
  planCatalogImport,
  type ImportError,
} from "@/lib/catalog/csv";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { applyCatalogCsvAction } from "../actions";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.products.csv"))("importTitle") };
}

const resultSchema = z.enum(["applied", "stale", "invalid", "already_applied"]);
const countSchema = z.coerce.number().int().min(0).max(MAX_CATALOG_CSV_ROWS).catch(0);

/** Text wrapped in Unicode's first-strong isolate (FSI … PDI): it takes its own direction inside any sentence. */
const isolate = (text: string) => `\u2068${text}\u2069`;
/** A long cell shortened for the page (a description may have 5,000 characters). */
const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/**
 * The catalogue's CSV, step two: a stored file checked against the catalogue as it is now (the dry run: this page
 * only reads), with every problem by row and column, what importing it would add and change, and the button that
 * applies exactly the plan shown (its hash goes with the form; lib/catalog/csv.ts refuses a plan that changed since).
 */
export default async function CatalogImportPage({ params, searchParams }: Props) {
  await requireAdmin();
  const [{ id }, query, locale, format, t, tProducts] = await Promise.all([
    params,
    searchParams,
    getLocale(),
    getFormatter(),
    getTranslations("admin.products.csv"),
    getTranslations("admin.products"),
  ]);
  const stored = await findCatalogImport(getDb(), id);
  const back = <TextLink href="/admin/products/import">{t("another")}</TextLink>;
  if (!stored) return <NotFound back={back}>{t("notFound")}</NotFound>;
  const plan = await planCatalogImport(getDb(), stored.content);
  const result = resultSchema.safeParse(query.result);
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  const message = (error: ImportError) =>
    error.scope === "product"
      ? tProducts(`problems.${error.problem}`)
      : t(`problems.${error.problem}`, { max: MAX_CATALOG_CSV_ROWS, held: error.held ?? 0 });
  const shown = (value: string) => (value === "" ? t("empty") : isolate(clip(value)));
  const changing = plan.rows.filter((row) => row.action !== "unchanged");
  const toApply = plan.counts.create + plan.counts.update;

  return (
    <section className="space-y-6">
      {back}
      {result.success && (
        <Notice tone={result.data === "applied" ? "done" : "warning"}>
          {t(`result.${result.data}`, {
            created: countSchema.parse(query.created),
            updated: countSchema.parse(query.updated),
          })}
        </Notice>
      )}
      <PageHeader title={t("checkTitle", { file: isolate(stored.fileName ?? t("untitled")) })}>
        <p className="mt-1 text-sm text-stone-600">
          {t("uploadedBy", { by: stored.createdBy, when: when(stored.createdAt) })}{" "}
          {stored.appliedAt && t("applied", { by: stored.appliedBy ?? "", when: when(stored.appliedAt) })}
        </p>
      </PageHeader>

      {!stored.appliedAt && (
        <>
          <dl className="flex flex-wrap gap-3" data-testid="import-counts">
            {(
              [
                ["create", plan.counts.create],
                ["update", plan.counts.update],
                ["unchanged", plan.counts.unchanged],
                ["errors", plan.errors.length],
              ] as const
            ).map(([key, count]) => (
              <div key={key} className={`${card} px-4 py-2`}>
                <dt className="text-sm text-stone-600">{t(`counts.${key}`)}</dt>
                <dd className="text-xl font-semibold">{format.number(count)}</dd>
              </div>
            ))}
          </dl>

          {plan.ignoredColumns.length > 0 && (
            <p className="text-sm text-stone-700">
              {t("ignored", { columns: plan.ignoredColumns.map(isolate).join(", ") })}
            </p>
          )}

          {plan.errors.length > 0 && (
            <Problems title={t("problemsTitle")} help={t("problemsHelp")} testId="import-problems">
              <Table
                region={{ labelledBy: "problems" }}
                minWidth="min-w-[30rem]"
                head=""
                body="divide-y divide-red-200"
                columns={columnsOf(["row", "column", "problem"] as const, (key) => t(key))}
              >
                {plan.errors.map((error, index) => (
                  <tr key={index}>
                    <td className="px-1 py-1">{error.row === null ? t("wholeFile") : format.number(error.row)}</td>
                    <td className="px-1 py-1">
                      {error.column && (
                        <code dir="ltr" className="rounded bg-white px-1">
                          {error.column}
                        </code>
                      )}
                    </td>
                    <td className="px-1 py-1">{message(error)}</td>
                  </tr>
                ))}
              </Table>
            </Problems>
          )}

          {plan.errors.length === 0 && toApply === 0 && <p className={`${card} p-4`}>{t("nothingToDo")}</p>}
          {plan.errors.length === 0 && toApply > 0 && (
            <form action={applyCatalogCsvAction} className="rounded-xl border border-brand-600 bg-white p-4">
              <input type="hidden" name="id" value={stored.id} />
              <input type="hidden" name="plan" value={plan.hash} />
              <SubmitButton pendingLabel={t("applying")}>{t("apply", { count: toApply })}</SubmitButton>
              <p className="mt-2 text-sm text-stone-600">{t("applyHelp")}</p>
            </form>
          )}

          {changing.length > 0 && (
            <Section id="changes" title={t("changesTitle")}>
              <Table
                region={{ labelledBy: "changes" }}
                minWidth="min-w-[36rem]"
                testId="import-rows"
                columns={columnsOf(["row", "product", "changes"] as const, (key) => t(key))}
              >
                {changing.map((row) => (
                  <tr key={row.row} className="align-top">
                    <td className="px-1 py-1">{format.number(row.row)}</td>
                    <th scope="row" className="px-1 py-1 text-start font-normal">
                      <span className="me-2 rounded bg-stone-100 px-1 text-xs">{t(`action.${row.action}`)}</span>
                      <code dir="ltr">{row.slug}</code>
                      <div>{locale === "ar" ? row.input.nameAr : row.input.nameEn}</div>
                    </th>
                    <td className="px-1 py-1">
                      {row.action === "create" ? (
                        formatMoney(row.input.price, locale)
                      ) : (
                        <ul>
                          {CSV_COLUMNS.filter((column) => row.changes[column]).map((column) => {
                            const [before, after] = row.changes[column]!;
                            return (
                              <li key={column}>
                                {t("change", {
                                  column: isolate(column),
                                  before: shown(before),
                                  after: shown(after),
                                })}
                              </li>
                            );
                          })}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </Table>
              {plan.counts.unchanged > 0 && (
                <p className="mt-2 text-sm text-stone-600">{t("unchangedHidden", { count: plan.counts.unchanged })}</p>
              )}
            </Section>
          )}
        </>
      )}
    </section>
  );
}
