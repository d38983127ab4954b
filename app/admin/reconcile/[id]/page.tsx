import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { TextLink, NotFound, PageHeader } from "@/components/admin/page-header";
import { OrderLink } from "@/components/admin/order-link";
import { PaymentListRows } from "@/components/admin/payment-list-rows";
import { Problems } from "@/components/admin/problems";
import { Notice, Section } from "@/components/admin/section";
import { columnsOf, Table } from "@/components/admin/table";
import { SubmitButton } from "@/components/submit-button";
import { requireAdmin } from "@/lib/admin/auth";
import type { ListProblem } from "@/lib/admin/payment-list";
import { planReconciliation, type PlanRow, type RowOutcome } from "@/lib/admin/reconcile";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { applyPaymentListAction } from "../actions";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.reconcile"))("title") };
}

const resultSchema = z.enum(["applied", "nothing_to_apply", "has_problems", "not_found"]);

/** The columns of the paid orders the list lacks. */
const MISSING_COLUMNS = ["order", "token", "amount", "paidAt"] as const;

/** Text wrapped in Unicode's first-strong isolate (FSI … PDI): it takes its own direction inside any sentence. */
const isolate = (text: string) => `\u2068${text}\u2069`;

/** The page's groups of payments, in the order a merchant deals with them, and the outcomes each holds. */
const GROUPS: {
  group: "mark_paid" | "marked_paid" | "attention" | "no_order" | "already_paid" | "not_completed";
  outcomes: RowOutcome[];
}[] = [
  { group: "mark_paid", outcomes: ["mark_paid"] },
  { group: "marked_paid", outcomes: ["marked_paid"] },
  { group: "attention", outcomes: ["amount_differs", "cannot_mark", "conflict", "listed_twice"] },
  { group: "no_order", outcomes: ["no_order"] },
  { group: "already_paid", outcomes: ["already_paid"] },
  { group: "not_completed", outcomes: ["not_completed"] },
];

/**
 * Reconciliation, step two: a stored list checked against the orders as they are now (the dry run: this page only
 * reads), with the problems that keep it from being applied, what applying it would do to each payment, the paid
 * orders it lacks, and the button that applies it.
 */
export default async function PaymentListPage({ params, searchParams }: Props) {
  await requireAdmin();
  const [{ id }, query, locale, format, t] = await Promise.all([
    params,
    searchParams,
    getLocale(),
    getFormatter(),
    getTranslations("admin.list"),
  ]);
  const plan = await planReconciliation(getDb(), id);
  const result = resultSchema.safeParse(query.result);
  const back = <TextLink href="/admin/reconcile">{t("back")}</TextLink>;
  if (!plan) return <NotFound back={back}>{t("notFound", { id: id.slice(0, 40) })}</NotFound>;
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  const day = (value: string) => format.dateTime(new Date(`${value}T12:00:00Z`), { dateStyle: "medium" });
  const problem = (item: ListProblem): string => {
    switch (item.code) {
      case "empty":
        return t("problems.empty");
      case "too_many_rows":
        return t("problems.too_many_rows", { max: item.max });
      case "unreadable":
        return t("problems.unreadable", { row: item.row });
      case "missing_column":
        return t(`problems.missing_column.${item.column}`);
      case "cell": {
        // The list's own text is isolated, so that Latin in an Arabic sentence (or the reverse) keeps its place.
        const what = t(`problems.cells.${item.problem}`, { value: isolate(item.value) });
        const at = { row: item.row, letter: isolate(item.letter), problem: what };
        return item.column ? t("problems.cellNamed", { ...at, column: isolate(item.column) }) : t("problems.cell", at);
      }
    }
  };
  const rowsOf = (outcomes: RowOutcome[]): PlanRow[] => plan.rows.filter((row) => outcomes.includes(row.outcome));

  return (
    <section className="space-y-6">
      {back}
      {result.success && (
        <Notice tone={result.data === "applied" ? "done" : "warning"}>{t(`results.${result.data}`)}</Notice>
      )}
      <PageHeader title={t("title", { at: when(plan.list.createdAt) })}>
        <p className="mt-1 text-sm text-stone-600">
          {t("givenBy", {
            by: plan.list.createdBy,
            source: plan.list.fileName ? t("fromFile", { name: plan.list.fileName }) : t("pasted"),
          })}{" "}
          {plan.list.appliedAt && t("appliedBy", { at: when(plan.list.appliedAt), by: plan.list.appliedBy ?? "" })}
        </p>
        <p className="mt-1">{t("summary", { payments: plan.rows.length })}</p>
      </PageHeader>

      {plan.problems.length > 0 && (
        <Problems
          title={t("problemsTitle")}
          help={t("problemsHelp")}
          testId="list-problems"
          items={plan.problems.map(problem)}
        />
      )}

      {plan.toApply > 0 && (
        <Section id="apply" title={t("applyTitle")} tone="action">
          <p className="mt-1 max-w-3xl text-sm text-stone-700">{t("applyHelp")}</p>
          <form action={applyPaymentListAction} className="mt-3">
            <input type="hidden" name="id" value={plan.list.id} />
            <SubmitButton pendingLabel={t("applying")}>{t("apply", { count: plan.toApply })}</SubmitButton>
          </form>
        </Section>
      )}

      {GROUPS.map(({ group, outcomes }) => {
        const rows = rowsOf(outcomes);
        return rows.length === 0 ? null : (
          <PaymentListRows
            key={group}
            id={`group-${group}`}
            title={`${t(`groups.${group}`)} (${rows.length})`}
            help={group === "no_order" ? t("noOrderHelp") : undefined}
            rows={rows}
          />
        );
      })}

      <Section
        id="missing"
        testId="missing"
        title={
          <>
            {t("groups.missing")}
            {plan.days && ` (${plan.missing.length}${plan.moreMissing ? "+" : ""})`}
          </>
        }
      >
        {!plan.days ? (
          <p className="mt-1 text-sm text-stone-600">{t("noDates")}</p>
        ) : plan.missing.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600">
            {t("missingNone", { from: day(plan.days.from), to: day(plan.days.to) })}
          </p>
        ) : (
          <>
            <p className="mt-1 text-sm text-stone-600">
              {t("missingHelp", { from: day(plan.days.from), to: day(plan.days.to) })}
              {plan.moreMissing && ` ${t("missingMore", { count: plan.missing.length })}`}
            </p>
            <Table
              region={{ labelledBy: "missing" }}
              minWidth="min-w-[36rem]"
              columns={columnsOf(MISSING_COLUMNS, (key) => t(`columns.${key}`), ["amount"])}
            >
              {plan.missing.map((order) => (
                <tr key={order.id}>
                  <th scope="row" className="px-1 py-1 text-start font-normal">
                    <OrderLink id={order.id} />
                  </th>
                  <td className="px-1 py-1 font-mono break-all" dir="ltr">
                    {order.paymentToken ?? "—"}
                  </td>
                  <td className="px-1 py-1 text-end whitespace-nowrap">{formatMoney(order.amountMinor, locale)}</td>
                  <td className="px-1 py-1 whitespace-nowrap">{when(order.paidAt)}</td>
                </tr>
              ))}
            </Table>
          </>
        )}
      </Section>
    </section>
  );
}
