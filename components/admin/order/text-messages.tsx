import { getTranslations } from "next-intl/server";
import { resendSmsAction } from "@/app/admin/orders/[id]/actions";
import type { OrderSms } from "@/lib/orders/sms-outbox";
import { SubmitButton } from "../../submit-button";
import { Section } from "../section";

/**
 * The order's text messages (lib/orders/sms-outbox.ts): what each told, to which phone, where it stands, the last
 * error or delivery report when it failed or never arrived, and "Send it again" for those. Nothing when the order has
 * none (the customer did not ask, or text messages are off).
 */
export async function TextMessages({ orderId, messages }: { orderId: string; messages: OrderSms[] }) {
  if (messages.length === 0) return null;
  const [t, tOrder] = await Promise.all([getTranslations("admin.order.sms"), getTranslations("admin.order")]);
  return (
    <Section id="text-messages" title={t("title")}>
      <p className="mt-1 text-sm text-stone-600">{t("help")}</p>
      <ul className="mt-3 space-y-3" data-testid="text-messages">
        {messages.map((message) => {
          const failed = message.status === "failed" || message.status === "undelivered";
          return (
            <li key={message.id} className="flex flex-wrap items-center justify-between gap-3">
              <div>
                <p>
                  {t(`reasons.${message.reason}`)} ·{" "}
                  <span dir="ltr" className="font-mono text-sm">
                    {message.phone}
                  </span>{" "}
                  ·{" "}
                  <span className={failed ? "font-medium text-red-800" : undefined}>
                    {t(`statuses.${message.status}`)}
                  </span>
                </p>
                {failed && message.lastError && (
                  <p className="text-sm text-stone-600">{t("lastError", { error: message.lastError })}</p>
                )}
              </div>
              {failed && (
                <form action={resendSmsAction}>
                  <input type="hidden" name="id" value={orderId} />
                  <input type="hidden" name="message" value={message.id} />
                  <SubmitButton pendingLabel={tOrder("resending")} variant="secondary">
                    {t("resend")}
                  </SubmitButton>
                </form>
              )}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
