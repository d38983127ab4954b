import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { PageHeader, TextLink } from "@/components/admin/page-header";
import { ResultNotice } from "@/components/admin/result-notice";
import { columnsOf, LIST_CELL, OffTag, Table, WIDE_ONLY } from "@/components/admin/table";
import { primaryAction } from "@/components/styles";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { listPromoCodes } from "@/lib/promo-codes/list";
import { describeDiscount, describeValidity } from "./describe";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.promo"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const resultSchema = z.enum(["created", "saved", "unchanged", "not_found"]);

/**
 * The promo codes as the merchant sets them: each code (opening its page), what it takes off and from which total,
 * when it is valid (Libya's time), its uses — spent, held by open orders, and what is left of its limit — and whether
 * it is on; a link to add one. Each change is audited (promo_code_events, shown on the code's page).
 */
export default async function AdminPromoCodesPage({ searchParams }: Props) {
  await requireAdmin();
  const [query, locale, t, format] = await Promise.all([
    searchParams,
    getLocale(),
    getTranslations("admin.promo"),
    getFormatter(),
  ]);
  const codes = await listPromoCodes(getDb());
  const result = resultSchema.safeParse(query.result);

  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} intro={t("intro")} />
      {result.success && (
        <ResultNotice problem={result.data === "not_found"} testId="promo-result">
          {t(`results.${result.data}`)}
        </ResultNotice>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p data-testid="promo-summary">
          {t("summary", { count: codes.length, on: codes.filter((code) => code.row.enabled).length })}
        </p>
        <PageLink href="/admin/promo-codes/new" className={primaryAction}>
          {t("add")}
        </PageLink>
      </div>
      <Table
        look="list"
        region={{ label: t("table") }}
        minWidth="min-w-[20rem]"
        caption={t("caption")}
        columns={columnsOf(
          ["code", "off", "validity", "used", "held", "left", "status"] as const,
          (key) => t(`columns.${key}`),
          ["used", "held", "left"],
          ["validity", "used", "held"],
        )}
        empty={codes.length === 0 && t("empty")}
        testId="promo-codes"
      >
        {codes.map(({ row, used, held, left }) => (
          <tr key={row.id} data-testid="promo-row" className={`align-top ${row.enabled ? "" : "bg-stone-50"}`}>
            <th scope="row" className={`${LIST_CELL} text-start font-normal`}>
              <TextLink
                href={`/admin/promo-codes/${row.id}`}
                aria-label={t("editLabel", { code: row.code })}
                className="font-mono"
                dir="ltr"
              >
                {row.code}
              </TextLink>
            </th>
            <td className={LIST_CELL} data-testid="promo-off">
              {describeDiscount(row, t, locale)}
              {row.minLinesMinor > 0 && (
                <span className="block text-stone-600">
                  {t("minLines", { amount: formatMoney(row.minLinesMinor, locale) })}
                </span>
              )}
            </td>
            <td className={`${LIST_CELL} ${WIDE_ONLY}`} data-testid="promo-validity">
              {describeValidity(row, t, format)}
            </td>
            <td className={`${LIST_CELL} text-end ${WIDE_ONLY}`} data-testid="promo-used">
              {used}
            </td>
            <td className={`${LIST_CELL} text-end ${WIDE_ONLY}`} data-testid="promo-held">
              {held}
            </td>
            <td className={`${LIST_CELL} text-end`} data-testid="promo-left">
              {left === null ? <span className="text-stone-600">{t("noLimit")}</span> : left}
              {row.maxUsesPerCustomer !== null && (
                <span className="block text-stone-600 whitespace-nowrap">
                  {t("perCustomer", { count: row.maxUsesPerCustomer })}
                </span>
              )}
            </td>
            <td className={LIST_CELL} data-testid="promo-status">
              {row.enabled ? t("on") : <OffTag>{t("off")}</OffTag>}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
