import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { BackLink, NotFound, PageHeader } from "@/components/admin/page-header";
import { PromoCodeForm } from "@/components/admin/promo-code-form";
import { columnsOf, Table } from "@/components/admin/table";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import {
  findPromoCodeById,
  listPromoCodeEvents,
  parsePromoCodeId,
  promoCodeFormValues,
  type PromoCodeEvent,
  type PromoCodeField,
} from "@/lib/promo-codes/editing";
import { promoCodeFormLabels } from "../labels";

type Props = { params: Promise<{ id: string }> };

/** The code of the address, or undefined for an id that is not one or a code that does not exist. */
async function codeOf(params: Props["params"]) {
  const id = parsePromoCodeId((await params).id);
  return id === undefined ? undefined : findPromoCodeById(getDb(), id);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [code, t] = await Promise.all([codeOf(params), getTranslations("admin.promo")]);
  return { title: code ? code.code : t("results.not_found") };
}

/** The form's field each audited column is edited with. */
const FIELD_OF_COLUMN: Record<string, PromoCodeField> = {
  code: "code",
  kind: "kind",
  percent: "value",
  amountMinor: "value",
  minLinesMinor: "minLines",
  startsAt: "startsAt",
  endsAt: "endsAt",
  maxUses: "maxUses",
  maxUsesPerCustomer: "maxUsesPerCustomer",
  enabled: "enabled",
};

/** One promo code as the merchant edits it, and its audited changes (who, when, each field before and after). */
export default async function PromoCodePage({ params }: Props) {
  await requireAdmin();
  const [code, locale, t, format, labels] = await Promise.all([
    codeOf(params),
    getLocale(),
    getTranslations("admin.promo"),
    getFormatter(),
    promoCodeFormLabels("save"),
  ]);
  const back = (
    <BackLink href="/admin/promo-codes" small>
      {t("back")}
    </BackLink>
  );
  if (!code) return <NotFound back={back}>{t("results.not_found")}</NotFound>;
  const events = await listPromoCodeEvents(getDb(), code.id);
  const initial = promoCodeFormValues(code);

  /** A stored value as the admin reads it: on/off, none, money, a time in Libya's, a kind. */
  const shown = (column: string, value: unknown): string => {
    if (typeof value === "boolean") return t(value ? "on" : "off");
    if (value === null || value === undefined) return t("history.none");
    if ((column === "amountMinor" || column === "minLinesMinor") && typeof value === "number") {
      return formatMoney(value, locale);
    }
    if (column === "startsAt" || column === "endsAt") {
      return format.dateTime(new Date(String(value)), { dateStyle: "medium", timeStyle: "short" });
    }
    if (column === "kind" && (value === "percent" || value === "amount" || value === "free_delivery")) {
      return labels.kinds[value];
    }
    if (column === "percent") return `${String(value)}%`;
    return String(value);
  };
  const what = (event: PromoCodeEvent): string[] => {
    if (event.type === "code_created") return [t("history.code_created")];
    return Object.entries(event.data.after).map(([column, after]) =>
      t("history.change", {
        field: FIELD_OF_COLUMN[column] ? labels.fields[FIELD_OF_COLUMN[column]] : column,
        before: shown(column, event.data.before?.[column]),
        after: shown(column, after),
      }),
    );
  };

  return (
    <div className="space-y-6">
      <section className="space-y-4">
        {back}
        <PageHeader title={t("form.editTitle", { code: code.code })} />
        <PromoCodeForm key={JSON.stringify(initial)} id={code.id} initial={initial} labels={labels} />
      </section>
      <section aria-labelledby="promo-history" className="space-y-3">
        <h2 id="promo-history" className="text-lg font-semibold">
          {t("history.title")}
        </h2>
        <Table
          region={{ labelledBy: "promo-history" }}
          caption={t("history.caption")}
          minWidth="min-w-[20rem]"
          columns={columnsOf(["when", "who", "what"] as const, (key) => t(`history.${key}`))}
          empty={events.length === 0 && t("history.empty")}
          testId="promo-history"
        >
          {events.map((event) => (
            <tr key={event.id} className="align-top">
              <td className="px-1 py-1 whitespace-nowrap">
                <time dateTime={event.at.toISOString()}>
                  {format.dateTime(event.at, { dateStyle: "medium", timeStyle: "short" })}
                </time>
              </td>
              <td className="px-1 py-1">
                <bdi>{event.by}</bdi>
              </td>
              <td className="px-1 py-1">
                <ul>
                  {what(event).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </Table>
      </section>
    </div>
  );
}
