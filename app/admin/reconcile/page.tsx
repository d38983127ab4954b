import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getFormatter, getTranslations } from "next-intl/server";
import { z } from "zod";
import { Section } from "@/components/admin/section";
import { columnsOf, PHONE_ONLY, Table, WIDE_ONLY } from "@/components/admin/table";
import { FileFormat, FormatColumns, UploadForm, UploadPage } from "@/components/admin/upload-form";
import { requireAdmin } from "@/lib/admin/auth";
import { HEADER_NAMES, MAX_LIST_BYTES } from "@/lib/admin/payment-list";
import { recentPaymentLists } from "@/lib/admin/reconcile";
import { getDb } from "@/lib/db/client";
import { checkPaymentListAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.reconcile"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const errorSchema = z.enum(["empty", "too_large", "not_text"]);

/** The columns a list may have, with every header name the reader knows each by (lib/admin/payment-list.ts). */
const COLUMNS = [
  { column: "payment", names: [...HEADER_NAMES.paymentToken, ...HEADER_NAMES.orderId] },
  { column: "amount", names: HEADER_NAMES.amount },
  { column: "reference", names: HEADER_NAMES.reference },
  { column: "date", names: HEADER_NAMES.date },
  { column: "status", names: HEADER_NAMES.status },
  { column: "currency", names: HEADER_NAMES.currency },
] as const;

/**
 * Reconciliation, step one: the merchant pastes or uploads the merchant dashboard's list of payments, and is taken to
 * its check (`[id]/page.tsx`). Also lists the lists checked lately.
 */
export default async function ReconcilePage({ searchParams }: Props) {
  await requireAdmin();
  const [query, t, format, lists] = await Promise.all([
    searchParams,
    getTranslations("admin.reconcile"),
    getFormatter(),
    recentPaymentLists(getDb()),
  ]);
  const error = errorSchema.safeParse(query.error);
  const kb = MAX_LIST_BYTES / 1024;
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });

  return (
    <UploadPage
      title={t("title")}
      intro={t("intro")}
      error={error.success ? t(`errors.${error.data}`, { kb }) : undefined}
    >
      <UploadForm
        action={checkPaymentListAction}
        formatId="list-format"
        fileLabel={t("file", { kb })}
        submit={t("check")}
        pending={t("checking")}
        help={t("checkHelp")}
      >
        <label className="grid gap-1 text-sm font-medium">
          {t("paste")}
          <textarea
            name="list"
            rows={8}
            dir="ltr"
            spellCheck={false}
            className="rounded-lg border border-stone-300 px-3 py-2 font-mono text-sm font-normal"
          />
        </label>
      </UploadForm>

      <FileFormat
        id="list-format"
        title={t("formatTitle")}
        example={"token;amount;reference;date\nK7Q2M9…;103,75;TXN-0001;04/03/2025 14:20\n"}
      >
        <p className="mt-1">{t("format")}</p>
        <FormatColumns
          caption={t("columnsCaption")}
          headings={[t("column"), t("names")]}
          rows={COLUMNS.map(({ column, names }) => ({
            key: column,
            name: t(`columns.${column}`),
            meaning: names.map((name) => (
              <code key={name} dir="auto" className="me-1 mb-1 inline-block rounded bg-stone-100 px-1">
                {name}
              </code>
            )),
          }))}
        />
        <p className="mt-2">{t("formatMore")}</p>
      </FileFormat>

      <Section id="recent" title={t("recent")}>
        <Table
          region={{ labelledBy: "recent" }}
          minWidth="sm:min-w-[36rem]"
          cell="py-1 pe-2"
          columns={columnsOf(["given", "by", "source", "applied"] as const, (key) => t(key), [], ["by", "source"])}
          empty={lists.length === 0 && t("none")}
        >
          {lists.map((list) => (
            <tr key={list.id}>
              <th scope="row" className="py-1 pe-2 text-start font-normal">
                <PageLink
                  href={`/admin/reconcile/${list.id}`}
                  className="text-brand-800 underline underline-offset-2"
                  aria-label={t("open", { at: when(list.createdAt) })}
                >
                  {when(list.createdAt)}
                </PageLink>
                {/* On a phone who gave it and the file, whose columns it hides, under the time. */}
                <span className={`${PHONE_ONLY} block text-xs break-all text-stone-600`}>
                  {list.createdBy} · <span dir="auto">{list.fileName ?? t("pasted")}</span>
                </span>
              </th>
              <td className={`py-1 pe-2 ${WIDE_ONLY}`}>{list.createdBy}</td>
              <td className={`py-1 pe-2 ${WIDE_ONLY}`} dir="auto">
                {list.fileName ?? t("pasted")}
              </td>
              <td className="py-1">
                {list.appliedAt ? `${when(list.appliedAt)} · ${list.appliedBy ?? ""}` : t("notApplied")}
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </UploadPage>
  );
}
