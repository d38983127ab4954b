import { PageLink } from "@/components/page-link";
import { getTranslations } from "next-intl/server";
import type { Dashboard } from "@/lib/dashboard/figures";
import { formatDayRange } from "@/lib/dashboard/period";
import { Section } from "../section";
import { Table } from "../table";
import { homeFormat, linkClass, ordersHref } from "./format";

/** The funnel's steps, each with the orders list that shows it (`null`: no list, the open checkouts). */
const STEPS = [
  ["started", {}],
  ["paymentCreated", { status: "payment_created" }],
  ["paid", { status: "paid" }],
  ["cancelled", { status: "cancelled" }],
  ["expired", { status: "expired" }],
  ["failed", { status: "failed" }],
  ["open", null],
] as const;

/** The checkouts started in the period, and how many reached each step, as counts and as a share of those started. */
export async function CheckoutFunnel({ funnel, bounds }: Pick<Dashboard, "funnel" | "bounds">) {
  const [t, { number, percent }] = await Promise.all([getTranslations("admin.dashboard"), homeFormat()]);
  const columns = [
    { key: "step", label: t("funnelStep") },
    { key: "count", label: t("funnelCount"), end: true },
    { key: "share", label: <span className="sr-only">{t("funnelShare")}</span>, className: "w-1/3" },
  ];
  return (
    <Section id="funnel" title={t("funnel")} className="lg:col-span-2">
      <p className="text-sm text-stone-600">{t("funnelIntro")}</p>
      <Table look="panel" testId="funnel-table" caption={t("funnelCaption")} columns={columns}>
        {STEPS.map(([step, filter]) => {
          const value = funnel[step];
          const share = funnel.started === 0 ? 0 : value / funnel.started;
          return (
            <tr key={step} data-step={step}>
              <th scope="row" className="py-1 text-start font-normal">
                {t(step)}
              </th>
              <td className="py-1 text-end">
                {filter ? (
                  <PageLink
                    href={ordersHref({ created: formatDayRange(bounds.current), ...filter })}
                    className={linkClass}
                  >
                    {number(value)}
                  </PageLink>
                ) : (
                  number(value)
                )}
              </td>
              <td className="py-1 ps-3">
                <span className="flex items-center gap-2">
                  <svg aria-hidden="true" width="100%" height="8" className="min-w-0 flex-1 text-brand-600">
                    <rect width={`${Math.round(share * 1000) / 10}%`} height="100%" rx={4} className="fill-current" />
                  </svg>
                  <span className="text-xs whitespace-nowrap text-stone-600">
                    {t("ofStarted", { percent: percent(share) })}
                  </span>
                </span>
              </td>
            </tr>
          );
        })}
      </Table>
    </Section>
  );
}
