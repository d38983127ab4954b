import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { orderLabels } from "@/components/admin/labels";
import { OrderStatusBadge } from "@/components/admin/order-status-badge";
import { OrderTimeline } from "@/components/admin/order-timeline";
import { SubmitButton } from "@/components/submit-button";
import { requireAdmin } from "@/lib/admin/auth";
import { findOrderForAdmin, lineNameIn } from "@/lib/admin/orders";
import { getDb } from "@/lib/db/client";
import { emailSettings } from "@/lib/env";
import { formatMoney, multiply } from "@/lib/money";
import { unresolvedFlags } from "@/lib/orders/flags";
import { canMarkPaid } from "@/lib/orders/settle";
import { fulfilmentSteps, nextFulfilmentStep } from "@/lib/orders/fulfilment";
import type { FulfilmentStep } from "@/lib/db/schema";
import { fulfilmentStepAction } from "../../actions";
import { markPaidAction, resendEmailAction, resolveFlagAction } from "./actions";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: (await getTranslations("admin.order"))("title", { id: id.slice(0, 40) }) };
}

const resultSchema = z.enum([
  "fulfilled",
  "packed",
  "out_for_delivery",
  "delivered",
  "ready_for_pickup",
  "picked_up",
  "step_already",
  "step_skipped",
  "step_wrong_way",
  "not_paid",
  "not_found",
  "marked_paid",
  "cannot_mark_paid",
  "reference_missing",
  "receipt_queued",
  "receipt_pending",
  "receipt_not_paid",
  "receipt_no_recipient",
  "notice_queued",
  "notice_pending",
  "notice_not_paid",
  "notice_no_recipient",
  "email_off",
  "flag_resolved",
  "flag_already_resolved",
  "flag_not_raised",
  "note_missing",
]);

/** Results that say something was done (the others say why not). */
const DONE = new Set([
  "fulfilled",
  "packed",
  "out_for_delivery",
  "delivered",
  "ready_for_pickup",
  "picked_up",
  "marked_paid",
  "receipt_queued",
  "notice_queued",
  "flag_resolved",
]);

/**
 * One order as the merchant needs it: lines as sold, customer, payment, the flags to look at (each resolved with a
 * note) and those dealt with, where its goods go (the delivery's city, address, landmark and phones, or pickup) and
 * their way step by step (each step optionally e-mailing the customer), its delivery note, and its history. Every
 * value is named in the reader's language.
 */
export default async function AdminOrderPage({ params, searchParams }: Props) {
  await requireAdmin();
  const [{ id }, query, locale, t, label] = await Promise.all([
    params,
    searchParams,
    getLocale(),
    getTranslations("admin.order"),
    orderLabels(),
  ]);
  const order = await findOrderForAdmin(getDb(), id);
  const settings = emailSettings();
  const merchantEmail = settings?.merchantEmail;
  const emailOn = settings !== null;
  const result = resultSchema.safeParse(query.result);

  if (!order) {
    return (
      <section>
        <p className="rounded-xl border border-stone-200 bg-white p-6">{t("notFound", { id: id.slice(0, 40) })}</p>
        <Link href="/admin/orders" className="mt-4 inline-block font-medium text-brand-800 underline">
          {t("back")}
        </Link>
      </section>
    );
  }
  const when = label.time;
  const { payment } = order;
  const details: [string, React.ReactNode][] = [
    [t("created"), when(order.createdAt)],
    [t("fullName"), order.fullName ? <span dir="auto">{order.fullName}</span> : t("none")],
    [t("email"), order.email ?? t("none")],
    [t("phone"), order.phone ? <span dir="ltr">{order.phone}</span> : t("none")],
    [t("language"), label.language(order.locale)],
    [t("gateway"), order.paymentGateway ? label.gateway(order.paymentGateway) : t("none")],
    [t("paidWith"), payment?.gateway ? label.gateway(payment.gateway) : t("none")],
    [t("paidAt"), payment ? when(payment.at) : t("none")],
    [
      t("transactionReference"),
      payment?.reference ? <span className="font-mono break-all">{payment.reference}</span> : t("none"),
    ],
    [t("token"), order.paymentToken ? <span className="font-mono break-all">{order.paymentToken}</span> : t("none")],
    ...(order.failure ? ([[t("failure"), label.failure(order.failure)]] as [string, React.ReactNode][]) : []),
  ];
  const open = unresolvedFlags(order);
  const city = order.deliveryCityEn && (locale === "ar" ? order.deliveryCityAr : order.deliveryCityEn);
  const delivery: [string, React.ReactNode][] = [
    [t("method"), t(`methods.${order.deliveryMethod ?? "none"}`)],
    ...((order.deliveryMethod === "delivery"
      ? [
          [t("city"), city],
          [
            t("address"),
            <span key="address" dir="auto">
              {order.deliveryAddress}
            </span>,
          ],
          [
            t("landmark"),
            order.deliveryLandmark ? (
              <span key="landmark" dir="auto">
                {order.deliveryLandmark}
              </span>
            ) : (
              t("none")
            ),
          ],
          [t("phone"), order.phone ? <span dir="ltr">{order.phone}</span> : t("none")],
          [t("secondPhone"), order.secondPhone ? <span dir="ltr">{order.secondPhone}</span> : t("none")],
          [t("deliveryFee"), order.deliveryFeeMinor ? formatMoney(order.deliveryFeeMinor, locale) : t("free")],
        ]
      : order.deliveryMethod === "pickup"
        ? [[t("phone"), order.phone ? <span dir="ltr">{order.phone}</span> : t("none")]]
        : []) as [string, React.ReactNode][]),
  ];
  // When each step of the goods' way was recorded: the latest event of its type (a step happens once).
  const steps = fulfilmentSteps(order.deliveryMethod);
  const stepAt = new Map<FulfilmentStep, Date>();
  for (const event of order.events)
    if ((steps as readonly string[]).includes(event.type)) stepAt.set(event.type as FulfilmentStep, event.at);
  const next = order.status === "paid" ? nextFulfilmentStep(order) : null;
  const canEmail = Boolean(order.email && emailOn);

  return (
    <section className="space-y-6">
      <Link href="/admin/orders" className="font-medium text-brand-800 underline underline-offset-2">
        {t("back")}
      </Link>
      {result.success && (
        <p
          role="status"
          className={`rounded-lg border p-3 ${DONE.has(result.data) ? "border-brand-600 bg-brand-50" : "border-amber-300 bg-amber-50 text-amber-900"}`}
        >
          {t(`results.${result.data}`)}
          {DONE.has(result.data) && query.emailed === "1" && <> {t("results.emailed")}</>}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-mono text-xl font-semibold break-all">{t("title", { id: order.id })}</h1>
        <OrderStatusBadge order={order} />
      </div>

      {open.length > 0 && (
        <section
          aria-labelledby="flags"
          className="rounded-xl border border-red-300 bg-red-50 p-4 text-red-900"
          data-testid="order-flags"
        >
          <h2 id="flags" className="font-semibold">
            {t("flagsTitle")}
          </h2>
          <p className="mt-1 text-sm">{t("flagHelp")}</p>
          <p className="mt-1 text-sm">{t("resolveHelp")}</p>
          <ul className="mt-3 space-y-3">
            {open.map((flag) => (
              <li key={flag}>
                <form action={resolveFlagAction} className="grid gap-2 sm:max-w-md">
                  <input type="hidden" name="id" value={order.id} />
                  <input type="hidden" name="flag" value={flag} />
                  <p className="font-medium">{label.flag(flag)}</p>
                  <label className="grid gap-1 text-sm">
                    {t("resolveNote", { flag: label.flag(flag) })}
                    <textarea
                      name="note"
                      required
                      maxLength={500}
                      rows={2}
                      dir="auto"
                      className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900"
                    />
                  </label>
                  <div>
                    <SubmitButton pendingLabel={t("resolving")} variant="secondary">
                      {t("resolve")}
                    </SubmitButton>
                  </div>
                </form>
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="grid gap-6 md:grid-cols-2">
        <section aria-labelledby="lines" className="rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="lines" className="font-semibold">
            {t("lines")}
          </h2>
          <table className="mt-2 w-full text-sm">
            <thead>
              <tr className="text-stone-600">
                <th scope="col" className="py-1 text-start font-medium">
                  {t("product")}
                </th>
                <th scope="col" className="py-1 text-end font-medium">
                  {t("unitPrice")}
                </th>
                <th scope="col" className="py-1 text-end font-medium">
                  {t("quantity")}
                </th>
                <th scope="col" className="py-1 text-end font-medium">
                  {t("lineTotal")}
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.position} className="border-t border-stone-200">
                  <th scope="row" className="py-1 text-start font-normal" dir="auto">
                    {lineNameIn(line, order.locale, locale)}
                  </th>
                  <td className="py-1 text-end whitespace-nowrap">{formatMoney(line.unitMinor, locale)}</td>
                  <td className="py-1 text-end">{line.quantity}</td>
                  <td className="py-1 text-end whitespace-nowrap">
                    {formatMoney(multiply(line.unitMinor, line.quantity), locale)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {order.deliveryMethod === "delivery" && (
                <tr className="border-t border-stone-200" data-testid="admin-fee-line">
                  <th scope="row" colSpan={3} className="py-1 text-start font-normal">
                    {t("feeLine", { city: city ?? "" })}
                  </th>
                  <td className="py-1 text-end whitespace-nowrap">
                    {order.deliveryFeeMinor ? formatMoney(order.deliveryFeeMinor, locale) : t("free")}
                  </td>
                </tr>
              )}
              <tr className="border-t border-stone-300 font-semibold">
                <th scope="row" colSpan={3} className="py-1 text-start">
                  {t("orderTotal")}
                </th>
                <td className="py-1 text-end whitespace-nowrap">{formatMoney(order.amountMinor, locale)}</td>
              </tr>
            </tfoot>
          </table>
        </section>

        <section aria-labelledby="customer" className="rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="customer" className="font-semibold">
            {t("customer")} · {t("payment")}
          </h2>
          <FactList facts={details} />
        </section>
      </div>

      {order.resolvedFlags.length > 0 && (
        <section
          aria-labelledby="resolved-flags"
          className="rounded-xl border border-stone-200 bg-white p-4"
          data-testid="resolved-flags"
        >
          <h2 id="resolved-flags" className="font-semibold">
            {t("resolvedTitle")}
          </h2>
          <ul className="mt-1 list-disc space-y-1 ps-5 text-sm">
            {order.flags
              .filter((flag) => order.resolvedFlags.includes(flag))
              .map((flag) => {
                const how = order.resolutions.get(flag);
                const name = label.flag(flag);
                return (
                  <li key={flag}>
                    {!how
                      ? t("resolvedUnknown", { flag: name })
                      : how.reference
                        ? t("resolvedByMark", { flag: name, by: how.by, reference: how.reference, at: when(how.at) })
                        : t("resolvedBy", { flag: name, by: how.by, at: when(how.at) })}
                    {how?.note && (
                      <span className="block text-stone-600" dir="auto">
                        {how.note}
                      </span>
                    )}
                  </li>
                );
              })}
          </ul>
        </section>
      )}

      <section
        aria-labelledby="delivery"
        className="rounded-xl border border-stone-200 bg-white p-4"
        data-testid="admin-delivery"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="delivery" className="font-semibold">
            {t("delivery")} · {t("fulfilment")}
          </h2>
          <Link
            href={`/admin/orders/${order.id}/note`}
            className="text-sm font-medium text-brand-800 underline underline-offset-2"
          >
            {t("deliveryNote")}
          </Link>
        </div>
        <FactList facts={delivery} />
        {order.deliveryMethod && (
          <ol className="mt-3 flex flex-wrap gap-2 text-sm" data-testid="admin-steps">
            {steps.map((step) => {
              const at = stepAt.get(step);
              return (
                <li
                  key={step}
                  className={`rounded-lg border px-2 py-1 ${at ? "border-brand-600 bg-brand-50" : "border-stone-200 text-stone-600"}`}
                >
                  {at
                    ? t("stepDone", { step: label.step(step), at: when(at) })
                    : t("stepNotYet", { step: label.step(step) })}
                </li>
              );
            })}
          </ol>
        )}
        {order.fulfilledAt && !order.deliveryMethod ? (
          <p className="mt-3">{t("fulfilledAt", { at: when(order.fulfilledAt) })}</p>
        ) : next ? (
          <form action={fulfilmentStepAction} className="mt-3 grid gap-2 sm:max-w-md">
            <input type="hidden" name="id" value={order.id} />
            <input type="hidden" name="step" value={next} />
            {next !== "fulfilled" && (
              <>
                <p className="text-sm text-stone-600">{t("fulfilmentHelp")}</p>
                {canEmail ? (
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="notify" defaultChecked className="size-4 accent-brand-700" />
                    {t("notify", { email: order.email ?? "" })}
                  </label>
                ) : (
                  <p className="text-sm text-stone-600">{order.email ? t("results.email_off") : t("noEmail")}</p>
                )}
              </>
            )}
            <div>
              <SubmitButton pendingLabel={t("fulfilling")}>
                {next === "fulfilled" ? t("fulfil") : t(`markStep.${next}`)}
              </SubmitButton>
            </div>
          </form>
        ) : (
          order.status !== "paid" && <p className="mt-3 text-stone-600">{t("fulfilHint")}</p>
        )}
      </section>

      {canMarkPaid(order.status) && (
        <section aria-labelledby="mark-paid" className="rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="mark-paid" className="font-semibold">
            {t("markPaid")}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{t("markPaidHelp")}</p>
          <form action={markPaidAction} className="mt-3 grid gap-3 sm:max-w-md">
            <input type="hidden" name="id" value={order.id} />
            <label className="grid gap-1 text-sm">
              {t("reference")}
              <input
                name="reference"
                required
                maxLength={100}
                dir="ltr"
                className="rounded-lg border border-stone-300 px-3 py-2"
              />
            </label>
            <label className="grid gap-1 text-sm">
              {t("note")}
              <textarea name="note" maxLength={500} rows={2} className="rounded-lg border border-stone-300 px-3 py-2" />
            </label>
            <div>
              <SubmitButton pendingLabel={t("markingPaid")}>{t("markPaid")}</SubmitButton>
            </div>
          </form>
        </section>
      )}

      {order.status === "paid" && (order.email || merchantEmail) && (
        <section aria-labelledby="emails" className="rounded-xl border border-stone-200 bg-white p-4">
          <h2 id="emails" className="font-semibold">
            {t("emails")}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{t("resendHelp")}</p>
          <div className="mt-3 flex flex-wrap gap-3">
            {[
              { kind: "receipt", to: order.email, label: t("resendReceipt", { email: order.email ?? "" }) },
              { kind: "merchant_notice", to: merchantEmail, label: t("resendNotice", { email: merchantEmail ?? "" }) },
            ].map(
              ({ kind, to, label }) =>
                to && (
                  <form key={kind} action={resendEmailAction}>
                    <input type="hidden" name="id" value={order.id} />
                    <input type="hidden" name="kind" value={kind} />
                    <SubmitButton pendingLabel={t("resending")} variant="secondary">
                      {label}
                    </SubmitButton>
                  </form>
                ),
            )}
          </div>
        </section>
      )}

      <OrderTimeline events={order.events} />
    </section>
  );
}

/** Facts about the order as a description list: each term, then its value. */
function FactList({ facts }: { facts: (readonly [string, React.ReactNode])[] }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-stone-600">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
