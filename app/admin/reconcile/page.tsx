import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { z } from "zod";
import { SubmitButton } from "@/components/submit-button";
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
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="max-w-3xl">{t("intro")}</p>
      {error.success && (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t(`errors.${error.data}`, { kb })}
        </p>
      )}

      <form
        action={checkPaymentListAction}
        className="grid gap-4 rounded-xl border border-stone-200 bg-white p-4"
        aria-describedby="list-format"
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
        <label className="grid gap-1 text-sm font-medium">
          {t("file", { kb })}
          <input
            type="file"
            name="file"
            accept=".csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values"
            className="text-sm font-normal file:me-3 file:rounded-lg file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:font-medium hover:file:bg-stone-50"
          />
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pendingLabel={t("checking")}>{t("check")}</SubmitButton>
          <p className="text-sm text-stone-600">{t("checkHelp")}</p>
        </div>
      </form>

      <section aria-labelledby="list-format-title" className="max-w-3xl text-sm text-stone-700">
        <h2 id="list-format-title" className="font-semibold text-stone-900">
          {t("formatTitle")}
        </h2>
        <div id="list-format">
          <p className="mt-1">{t("format")}</p>
          <table className="mt-2 w-full text-start">
            <caption className="sr-only">{t("columnsCaption")}</caption>
            <thead className="text-stone-600">
              <tr>
                <th scope="col" className="py-1 pe-3 text-start font-medium">
                  {t("column")}
                </th>
                <th scope="col" className="py-1 text-start font-medium">
                  {t("names")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200">
              {COLUMNS.map(({ column, names }) => (
                <tr key={column}>
                  <th scope="row" className="py-1 pe-3 text-start align-top font-normal">
                    {t(`columns.${column}`)}
                  </th>
                  <td className="py-1">
                    {names.map((name) => (
                      <code key={name} dir="auto" className="me-1 mb-1 inline-block rounded bg-stone-100 px-1">
                        {name}
                      </code>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2">{t("formatMore")}</p>
        </div>
        <pre dir="ltr" className="mt-2 overflow-x-auto rounded-lg bg-stone-100 p-3 font-mono text-xs">
          {"token;amount;reference;date\nK7Q2M9…;103,75;TXN-0001;04/03/2025 14:20\n"}
        </pre>
      </section>

      <section aria-labelledby="recent" className="rounded-xl border border-stone-200 bg-white p-4">
        <h2 id="recent" className="font-semibold">
          {t("recent")}
        </h2>
        {lists.length === 0 ? (
          <p className="mt-2 text-stone-600">{t("none")}</p>
        ) : (
          <div className="mt-2 overflow-x-auto" role="region" aria-labelledby="recent" tabIndex={0}>
            <table className="w-full min-w-[36rem] text-sm">
              <thead className="text-stone-600">
                <tr>
                  {(["given", "by", "source", "applied"] as const).map((column) => (
                    <th key={column} scope="col" className="py-1 text-start font-medium">
                      {t(column)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200">
                {lists.map((list) => (
                  <tr key={list.id}>
                    <th scope="row" className="py-1 text-start font-normal">
                      <Link
                        href={`/admin/reconcile/${list.id}`}
                        className="text-brand-800 underline underline-offset-2"
                        aria-label={t("open", { at: when(list.createdAt) })}
                      >
                        {when(list.createdAt)}
                      </Link>
                    </th>
                    <td className="py-1">{list.createdBy}</td>
                    <td className="py-1" dir="auto">
                      {list.fileName ?? t("pasted")}
                    </td>
                    <td className="py-1">
                      {list.appliedAt ? `${when(list.appliedAt)} · ${list.appliedBy ?? ""}` : t("notApplied")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
