import type { Metadata } from "next";
import { readCashSettings } from "@/lib/cash/settings";
import { PageLink } from "@/components/page-link";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { PickupForm } from "@/components/admin/delivery-forms";
import { PageHeader, TextLink } from "@/components/admin/page-header";
import { ResultNotice } from "@/components/admin/result-notice";
import { Section } from "@/components/admin/section";
import { columnsOf, LIST_CELL, OffTag, Table, WIDE_ONLY } from "@/components/admin/table";
import { primaryAction } from "@/components/styles";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { listDeliveryZones, readPickup } from "@/lib/delivery/zones";
import { formatMoney } from "@/lib/money";
import { pickupFormLabels } from "./labels";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.delivery"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const resultSchema = z.enum(["zone_created", "zone_saved", "unchanged", "pickup_saved", "not_found"]);

/**
 * Delivery as the merchant sets it: every zone (a city's names, its fee, free delivery from a total, offered or off,
 * cash allowed) in the checkout's order, each with its edit page, a link to add one; whether the shop takes cash on
 * delivery, with the way to its settings (app/admin/cash); and pickup from the shop (on or off, address and hours in
 * both languages). Each change is audited (delivery_events).
 */
export default async function AdminDeliveryPage({ searchParams }: Props) {
  await requireAdmin();
  const [query, locale, t, tCash] = await Promise.all([
    searchParams,
    getLocale(),
    getTranslations("admin.delivery"),
    getTranslations("admin.cash"),
  ]);
  const db = getDb();
  const [zones, pickup, pickupLabels, cash] = await Promise.all([
    listDeliveryZones(db, { enabledOnly: false }),
    readPickup(db),
    pickupFormLabels(),
    readCashSettings(db),
  ]);
  const offered = zones.filter((zone) => zone.enabled);
  const result = resultSchema.safeParse(query.result);
  const pickupInitial = {
    enabled: pickup.enabled,
    addressEn: pickup.address.en,
    addressAr: pickup.address.ar,
    hoursEn: pickup.hours.en,
    hoursAr: pickup.hours.ar,
  };

  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} intro={t("intro")} />
      {result.success && (
        <ResultNotice problem={result.data === "not_found"} testId="delivery-result">
          {t(`results.${result.data}`)}
        </ResultNotice>
      )}

      <Section
        id="zones"
        title={t("zones.title")}
        tone="bare"
        large
        aside={
          <PageLink href="/admin/delivery/zones/new" className={primaryAction}>
            {t("zones.add")}
          </PageLink>
        }
      >
        <p data-testid="zones-summary">{t("zones.summary", { count: zones.length, on: offered.length })}</p>
        <Table
          look="list"
          region={{ label: t("zones.table") }}
          minWidth="min-w-[20rem]"
          caption={t("zones.caption")}
          columns={columnsOf(
            ["city", "fee", "freeAbove", "status", "cash"] as const,
            (key) => (key === "cash" ? tCash("zones.column") : t(`zones.${key}`)),
            ["fee", "freeAbove"],
            ["cash"],
          )}
        >
          {zones.map((zone) => {
            // The city in the admin's language leads (and opens its edit page); the other name beneath it.
            const other = locale === "ar" ? "en" : "ar";
            return (
              <tr key={zone.id} data-testid="zone-row" className={zone.enabled ? undefined : "bg-stone-50"}>
                <th scope="row" className={`${LIST_CELL} text-start font-normal`}>
                  <TextLink
                    href={`/admin/delivery/zones/${zone.id}`}
                    aria-label={t("zones.editLabel", { name: zone.name[locale === "ar" ? "ar" : "en"] })}
                  >
                    {zone.name[locale === "ar" ? "ar" : "en"]}
                  </TextLink>
                  <span className="block text-stone-600" lang={other}>
                    <bdi>{zone.name[other]}</bdi>
                  </span>
                </th>
                <td className={`${LIST_CELL} text-end whitespace-nowrap`} data-testid="zone-fee">
                  {zone.feeMinor === 0 ? t("zones.free") : formatMoney(zone.feeMinor, locale)}
                </td>
                <td className={`${LIST_CELL} text-end`}>
                  {zone.freeAboveMinor === null ? (
                    <span className="text-stone-600">{t("zones.never")}</span>
                  ) : (
                    <span className="whitespace-nowrap">{formatMoney(zone.freeAboveMinor, locale)}</span>
                  )}
                </td>
                <td className={LIST_CELL} data-testid="zone-status">
                  {zone.enabled ? t("zones.on") : <OffTag>{t("zones.off")}</OffTag>}
                </td>
                <td className={`${LIST_CELL} ${WIDE_ONLY}`} data-testid="zone-cash">
                  {tCash(zone.cashOnDelivery ? "zones.allowed" : "zones.refused")}
                </td>
              </tr>
            );
          })}
        </Table>
      </Section>

      <Section id="cash-title" anchor="cash" title={tCash("summary.title")} tone="bare" large>
        <p className="max-w-3xl text-stone-700" data-testid="cash-summary">
          {cash.enabled
            ? tCash("summary.on", {
                allowed: offered.filter((zone) => zone.cashOnDelivery).length,
                count: offered.length,
              })
            : tCash("summary.off")}{" "}
          <TextLink href="/admin/cash">{tCash("summary.link")}</TextLink>
        </p>
      </Section>

      <Section id="pickup-title" anchor="pickup" title={t("pickup.title")} tone="bare" large>
        <p className="max-w-3xl text-stone-700">{t("pickup.intro")}</p>
        <PickupForm key={JSON.stringify(pickupInitial)} initial={pickupInitial} labels={pickupLabels} />
      </Section>
    </div>
  );
}
