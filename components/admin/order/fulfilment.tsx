import { TextLink } from "../page-header";
import { getLocale, getTranslations } from "next-intl/server";
import { fulfilmentStepAction } from "@/app/admin/actions";
import type { AdminOrder } from "@/lib/admin/orders";
import type { FulfilmentStep } from "@/lib/db/schema";
import { formatMoney } from "@/lib/money";
import { fulfilmentSteps, mayBeFulfilled, nextFulfilmentStep } from "@/lib/orders/fulfilment";
import { SubmitButton } from "../../submit-button";
import { orderLabels } from "../labels";
import { Section } from "../section";
import { FactList, phoneOr, type Fact } from "./fact-list";

/**
 * Where the order's goods go (the delivery's city, address, landmark and phones, or pickup), a link to its delivery
 * note, its way step by step with when each was recorded, and the button for the next step (which may e-mail the
 * customer, `canEmail`, and text them when they asked for text messages, `canText`).
 */
export async function OrderFulfilment({
  order,
  city,
  canEmail,
  canText,
}: {
  order: AdminOrder;
  city: string | null;
  canEmail: boolean;
  canText: boolean;
}) {
  const [locale, t, label] = await Promise.all([getLocale(), getTranslations("admin.order"), orderLabels()]);
  const phone = [t("phone"), phoneOr(order.phone, t("none"))] as const;
  const where: Fact[] =
    order.deliveryMethod === "delivery"
      ? [
          [t("city"), city],
          [
            t("address"),
            <span key="address" dir="auto">
              {order.deliveryAddress}
            </span>,
          ],
          [t("landmark"), order.deliveryLandmark ? <span dir="auto">{order.deliveryLandmark}</span> : t("none")],
          phone,
          [t("secondPhone"), phoneOr(order.secondPhone, t("none"))],
          [t("deliveryFee"), order.deliveryFeeMinor ? formatMoney(order.deliveryFeeMinor, locale) : t("free")],
        ]
      : order.deliveryMethod === "pickup"
        ? [phone]
        : [];
  // When each step of the goods' way was recorded: the latest event of its type. A cash order's parcel that failed at
  // the door or came back (lib/cash/) shows where it ended after the way's steps.
  const ended = order.fulfilment === "delivery_failed" || order.fulfilment === "returned" ? order.fulfilment : null;
  const steps: readonly FulfilmentStep[] = [...fulfilmentSteps(order.deliveryMethod), ...(ended ? [ended] : [])];
  const stepAt = new Map<FulfilmentStep, Date>();
  for (const event of order.events)
    if ((steps as readonly string[]).includes(event.type)) stepAt.set(event.type as FulfilmentStep, event.at);
  const next = mayBeFulfilled(order.status) ? nextFulfilmentStep(order) : null;

  return (
    <Section
      id="delivery"
      title={`${t("delivery")} · ${t("fulfilment")}`}
      testId="admin-delivery"
      aside={
        <TextLink href={`/admin/orders/${order.id}/note`} small>
          {t("deliveryNote")}
        </TextLink>
      }
    >
      <FactList facts={[[t("method"), t(`methods.${order.deliveryMethod ?? "none"}`)], ...where]} />
      {order.deliveryMethod && (
        <ol className="mt-3 flex flex-wrap gap-2 text-sm" data-testid="admin-steps">
          {steps.map((step) => {
            const at = stepAt.get(step);
            return (
              <li
                key={step}
                className={`rounded-lg border px-2 py-1 ${step === ended ? "border-amber-300 bg-amber-50 text-amber-900" : at ? "border-brand-600 bg-brand-50" : "border-stone-200 text-stone-600"}`}
              >
                {at
                  ? t("stepDone", { step: label.step(step), at: label.time(at) })
                  : t("stepNotYet", { step: label.step(step) })}
              </li>
            );
          })}
        </ol>
      )}
      {order.fulfilledAt && !order.deliveryMethod ? (
        <p className="mt-3">{t("fulfilledAt", { at: label.time(order.fulfilledAt) })}</p>
      ) : next ? (
        <form action={fulfilmentStepAction} className="mt-3 grid gap-2 sm:max-w-md">
          <input type="hidden" name="id" value={order.id} />
          <input type="hidden" name="step" value={next} />
          {next !== "fulfilled" && (
            <>
              <p className="text-sm text-stone-600">{t("fulfilmentHelp")}</p>
              {canEmail || canText ? (
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="notify" defaultChecked className="size-4 accent-brand-700" />
                  {t(canEmail && canText ? "notifyBoth" : canText ? "notifyText" : "notify", {
                    email: order.email ?? "",
                    phone: order.phone ?? "",
                  })}
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
        !mayBeFulfilled(order.status) &&
        !order.fulfilment && (
          <p className="mt-3 text-stone-600">
            {order.paymentMethod === "cash" ? t("cash.fulfilHint") : t("fulfilHint")}
          </p>
        )
      )}
    </Section>
  );
}
