import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { ZoneForm } from "@/components/admin/delivery-forms";
import { TextLink, NotFound, PageHeader } from "@/components/admin/page-header";
import { requireAdmin } from "@/lib/admin/auth";
import { getDb } from "@/lib/db/client";
import { findZoneForAdmin, parseZoneId } from "@/lib/delivery/editing";
import { toWireAmount } from "@/lib/money";
import { zoneFormLabels } from "../../labels";

type Props = { params: Promise<{ id: string }> };

/** The zone of the address, or undefined for an id that is not one or a zone that does not exist. */
async function zoneOf(params: Props["params"]) {
  const id = parseZoneId((await params).id);
  return id === undefined ? undefined : findZoneForAdmin(getDb(), id);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [zone, locale, t] = await Promise.all([zoneOf(params), getLocale(), getTranslations("admin.delivery")]);
  return { title: zone ? (locale === "ar" ? zone.nameAr : zone.nameEn) : t("results.not_found") };
}

/**
 * One delivery zone as the merchant edits it: names, fee, free delivery from a total, on or off, cash on delivery
 * allowed, its place.
 */
export default async function ZonePage({ params }: Props) {
  await requireAdmin();
  const [zone, locale, t] = await Promise.all([zoneOf(params), getLocale(), getTranslations("admin.delivery")]);
  const back = (
    <TextLink href="/admin/delivery" small>
      {t("back")}
    </TextLink>
  );
  if (!zone) return <NotFound back={back}>{t("results.not_found")}</NotFound>;
  const initial = {
    nameEn: zone.nameEn,
    nameAr: zone.nameAr,
    fee: toWireAmount(zone.feeMinor),
    freeAbove: zone.freeAboveMinor === null ? "" : toWireAmount(zone.freeAboveMinor),
    enabled: zone.enabled,
    cashOnDelivery: zone.cashOnDelivery,
    sortOrder: String(zone.sortOrder),
  };
  return (
    <section className="space-y-4">
      {back}
      <PageHeader dir="auto" title={t("zoneForm.editTitle", { name: locale === "ar" ? zone.nameAr : zone.nameEn })} />
      <ZoneForm id={zone.id} initial={initial} labels={await zoneFormLabels("save")} />
    </section>
  );
}
