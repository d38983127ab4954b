import { getTranslations } from "next-intl/server";
import { markPaidAction, resendEmailAction } from "@/app/admin/orders/[id]/actions";
import type { AdminOrder } from "@/lib/admin/orders";
import { canMarkPaid } from "@/lib/orders/settle";
import { SubmitButton } from "../../submit-button";
import { Section } from "../section";

/**
 * Marking the order paid by hand, with the payment's reference and a note; only where the state table allows it, and
 * never for a cash order (its cash is recorded as collected: components/admin/order/cash.tsx) nor for one the merchant
 * cancelled (final: lib/refunds/).
 */
export async function MarkPaid({ order }: { order: AdminOrder }) {
  if (order.paymentMethod === "cash" || !canMarkPaid(order.status, order.cancelledAt)) return null;
  const t = await getTranslations("admin.order");
  return (
    <Section id="mark-paid" title={t("markPaid")}>
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
    </Section>
  );
}

/**
 * The paid order's e-mails sent again on request: the customer's receipt (when they gave an address) and the
 * merchant's notice (`merchantEmail`, when set). Nothing when there is no one to send to.
 */
export async function ResendEmails({ order, merchantEmail }: { order: AdminOrder; merchantEmail?: string }) {
  if (order.status !== "paid" || !(order.email || merchantEmail)) return null;
  const t = await getTranslations("admin.order");
  const emails = [
    { kind: "receipt", to: order.email, label: t("resendReceipt", { email: order.email ?? "" }) },
    { kind: "merchant_notice", to: merchantEmail, label: t("resendNotice", { email: merchantEmail ?? "" }) },
  ];
  return (
    <Section id="emails" title={t("emails")}>
      <p className="mt-1 text-sm text-stone-600">{t("resendHelp")}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        {emails.map(
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
    </Section>
  );
}
