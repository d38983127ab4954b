import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { AuditHistory } from "@/components/admin/audit-history";
import { TextLink, NotFound, PageHeader } from "@/components/admin/page-header";
import { PromoCodeForm } from "@/components/admin/promo-code-form";
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
    <TextLink href="/admin/promo-codes" small>
      {t("back")}
    </TextLink>
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
      <AuditHistory
        id="promo-history"
        events={events.map((event) => ({ ...event, what: what(event) }))}
        namespace="admin.promo.history"
      />
    </div>
  );
}
