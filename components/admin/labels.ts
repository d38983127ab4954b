import { getFormatter, getMessages, getTranslations } from "next-intl/server";
import { ORDER_FLAGS, type FulfilmentStep, type OrderStatus } from "@/lib/db/schema";
import { gatewayName } from "@/lib/gateways";
import { isLocale } from "@/lib/i18n/config";
import { PAYMENT_ERROR_KINDS } from "@/lib/payments";

/** Why an order has no payment (`orders.failure`): a PaymentError kind, an unexpected error, or a claim given up. */
const FAILURES = [...PAYMENT_ERROR_KINDS, "unexpected", "abandoned"] as const;

const oneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  (list as readonly unknown[]).includes(value);

/**
 * How the back office names the values an order records, in the reader's language, so that an Arabic page reads in
 * Arabic: statuses, flags, the order's language, gateways, why a payment failed, times (Libya's). A value the shop
 * does not know (written by an older version, or sent by the service) is shown as recorded.
 */
export async function orderLabels() {
  const [t, messages, format] = await Promise.all([getTranslations("admin"), getMessages(), getFormatter()]);
  return {
    status: (status: OrderStatus) => t(`filters.${status}`),
    step: (step: FulfilmentStep) => t(`steps.${step}`),
    flag: (flag: unknown) => (oneOf(ORDER_FLAGS, flag) ? t(`flags.${flag}`) : String(flag)),
    language: (locale: string) => (isLocale(locale) ? t(`languages.${locale}`) : locale),
    gateway: (alias: string) => gatewayName(alias, messages.gateways),
    failure: (failure: string) => (oneOf(FAILURES, failure) ? t(`failures.${failure}`) : failure),
    time: (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "medium" }),
    /** Names as a list in the reader's language ("a, b and c"; "أ وب وج"). */
    list: (names: string[]) => format.list(names, { type: "conjunction" }),
  };
}

/** The words of a form's button: `create` on a new thing's page, `save` everywhere else. */
type Submit = "create" | "save";

/** The button's words while the form is being sent. */
const SENDING = { create: "creating", save: "saving" } as const;

/**
 * A back-office form's texts in the admin's language, from the messages of its namespace (`t`): each field's label
 * (`fields.<field>`), the hint of each field in `hinted` (`hints.<field>`), the button's words and its words while
 * sending (`create`/`creating`, or `save`/`saving`).
 */
export function formLabels<Field extends string, Hinted extends Field, Mode extends Submit>(
  t: NoInfer<(key: `fields.${Field}` | `hints.${Hinted}` | Mode | (typeof SENDING)[Mode]) => string>,
  fields: readonly Field[],
  hinted: readonly Hinted[],
  mode: Mode,
) {
  return {
    fields: Object.fromEntries(fields.map((field) => [field, t(`fields.${field}`)])) as Record<Field, string>,
    hints: Object.fromEntries(hinted.map((field) => [field, t(`hints.${field}`)])) as Partial<Record<Field, string>>,
    submit: t(mode),
    submitting: t(SENDING[mode]),
  };
}
