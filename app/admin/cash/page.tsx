import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { CashSettingsForm } from "@/components/admin/cash-settings-form";
import type { DeliveryFormLabels } from "@/components/admin/delivery-forms";
import { AuditHistory } from "@/components/admin/audit-history";
import { formLabels } from "@/components/admin/labels";
import { PageHeader, TextLink } from "@/components/admin/page-header";
import { Notice, Section } from "@/components/admin/section";
import { columnsOf, Table } from "@/components/admin/table";
import { requireAdmin } from "@/lib/admin/auth";
import {
  cashSettingsInputSchema,
  listBlockedPhones,
  listCashEvents,
  type CashEvent,
  type CashSettingsField,
} from "@/lib/cash/editing";
import { readCashSettings } from "@/lib/cash/settings";
import { getDb } from "@/lib/db/client";
import { listDeliveryZones } from "@/lib/delivery/zones";
import { formatMoney, toWireAmount } from "@/lib/money";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.cash"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const resultSchema = z.enum(["saved", "unchanged"]);

/** The form's texts in the admin's language. */
async function cashFormLabels(): Promise<DeliveryFormLabels<CashSettingsField>> {
  return formLabels(
    await getTranslations("admin.cash.form"),
    cashSettingsInputSchema.keyof().options,
    ["maxTotal", "fee", "confirmWithinHours"] as const,
    "save",
  );
}

/** The form's field each audited column is edited with. */
const FIELD_OF_COLUMN: Record<string, CashSettingsField> = {
  enabled: "enabled",
  atPickup: "atPickup",
  maxTotalMinor: "maxTotal",
  feeMinor: "fee",
  confirmWithinHours: "confirmWithinHours",
};

/**
 * Cash on delivery as the merchant sets it: on or off, at the counter for pickup, the highest total it takes, its fee,
 * how long a placed order waits for the merchant's call; how many cities allow it (each city's page says); the phone
 * numbers blocked from paying cash, each leading to its orders; and the latest audited changes (delivery_events), who
 * made them and when.
 */
export default async function AdminCashPage({ searchParams }: Props) {
  await requireAdmin();
  const [query, locale, t, tDelivery, format] = await Promise.all([
    searchParams,
    getLocale(),
    getTranslations("admin.cash"),
    getTranslations("admin.delivery"),
    getFormatter(),
  ]);
  const db = getDb();
  const [settings, zones, events, blocked, labels] = await Promise.all([
    readCashSettings(db),
    listDeliveryZones(db, { enabledOnly: false }),
    listCashEvents(db),
    listBlockedPhones(db),
    cashFormLabels(),
  ]);
  const result = resultSchema.safeParse(query.result);
  const initial = {
    enabled: settings.enabled,
    atPickup: settings.atPickup,
    maxTotal: settings.maxTotalMinor === null ? "" : toWireAmount(settings.maxTotalMinor),
    fee: toWireAmount(settings.feeMinor),
    confirmWithinHours: String(settings.confirmWithinHours),
  };
  const offered = zones.filter((zone) => zone.enabled);

  /** A stored value as the admin reads it: on/off, money, no limit, hours. */
  const shown = (column: string, value: unknown): string => {
    if (typeof value === "boolean") return t(value ? "history.on" : "history.off");
    if (value === null) return t("history.noLimit");
    if ((column === "maxTotalMinor" || column === "feeMinor") && typeof value === "number") {
      return formatMoney(value, locale);
    }
    return String(value);
  };
  const what = (event: CashEvent): string[] => {
    if (event.type !== "cash_edited") return [t(`history.${event.type}`, { phone: String(event.data.phone ?? "?") })];
    const changes = (event.data.changes ?? {}) as Record<string, [unknown, unknown]>;
    return Object.entries(changes).map(([column, [before, after]]) =>
      t("history.change", {
        field: FIELD_OF_COLUMN[column] ? labels.fields[FIELD_OF_COLUMN[column]] : column,
        before: shown(column, before),
        after: shown(column, after),
      }),
    );
  };

  return (
    <div className="space-y-6">
      <TextLink href="/admin/delivery" small>
        {tDelivery("back")}
      </TextLink>
      <PageHeader title={t("title")} intro={t("intro")} />
      {result.success && (
        <Notice tone="saved" testId="cash-result">
          {t(`results.${result.data}`)}
        </Notice>
      )}

      <section className="space-y-3">
        <CashSettingsForm key={JSON.stringify(initial)} initial={initial} labels={labels} />
        <p className="max-w-3xl text-stone-700" data-testid="cash-cities">
          {t("cities", {
            allowed: offered.filter((zone) => zone.cashOnDelivery).length,
            count: offered.length,
          })}{" "}
          <TextLink href="/admin/delivery#zones">{t("citiesLink")}</TextLink>
        </p>
      </section>

      <Section id="cash-blocked" anchor="blocked" title={t("blocked.title")} tone="bare" large>
        <p className="max-w-3xl text-stone-700">{t("blocked.intro")}</p>
        <Table
          region={{ labelledBy: "cash-blocked" }}
          caption={t("blocked.caption")}
          minWidth="min-w-[20rem]"
          columns={columnsOf(["phone", "by", "at", "note"] as const, (key) => t(`blocked.${key}`))}
          empty={blocked.length === 0 && t("blocked.empty")}
          testId="cash-blocked"
        >
          {blocked.map((row) => (
            <tr key={row.phone} className="align-top" data-testid="blocked-phone">
              <th scope="row" className="px-1 py-1 text-start font-normal">
                <TextLink
                  href={`/admin/orders?q=${row.phone}`}
                  aria-label={t("blocked.ordersLabel", { phone: row.phone })}
                  dir="ltr"
                >
                  {row.phone}
                </TextLink>
              </th>
              <td className="px-1 py-1">
                <bdi>{row.blockedBy}</bdi>
              </td>
              <td className="px-1 py-1 whitespace-nowrap">
                <time dateTime={row.blockedAt.toISOString()}>
                  {format.dateTime(row.blockedAt, { dateStyle: "medium", timeStyle: "short" })}
                </time>
              </td>
              <td className="px-1 py-1" dir="auto">
                {row.note}
              </td>
            </tr>
          ))}
        </Table>
      </Section>

      <AuditHistory
        id="cash-history"
        events={events.map((event) => ({ ...event, what: what(event) }))}
        namespace="admin.cash.history"
      />
    </div>
  );
}
