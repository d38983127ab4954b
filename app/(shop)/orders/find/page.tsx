import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { FormField } from "@/components/form-field";
import { PageLink } from "@/components/page-link";
import { primaryAction } from "@/components/styles";
import { smsSettings } from "@/lib/env";
import { LOOKUP_CODE_TTL_MS, LOOKUP_WINDOW_MS, MAX_WRONG_CODES, parseOrderNumber } from "@/lib/orders/lookup";
import { requestLookupCodeAction, verifyLookupCodeAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("meta"))("findOrder"), robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const errorSchema = z.enum(["orderNumber", "phone", "code", "wrongCode", "expired", "limited", "unavailable"]);
const minutesSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(LOOKUP_WINDOW_MS / 60_000)
  .catch(LOOKUP_WINDOW_MS / 60_000);
const leftSchema = z.coerce.number().int().min(1).max(MAX_WRONG_CODES).catch(1);
const alertClass = "mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900";

/**
 * Find my order by phone (lib/orders/lookup.ts): the order number and the phone it was placed with, then the code
 * texted to the order's phone, then the order's page as its signed link shows it. With text messages off (no
 * SMPP_URL) it says the shop cannot find orders by phone, and the orders page does not link here. Reads only; no
 * JavaScript needed.
 */
export default async function FindOrderPage({ searchParams }: Props) {
  const [query, t] = await Promise.all([searchParams, getTranslations("findOrder")]);
  const minutes = LOOKUP_CODE_TTL_MS / 60_000;
  const error = errorSchema.safeParse(query.error).data;
  const sent = query.sent === "1" && error !== "expired";
  const fieldError = (field: "orderNumber" | "phone" | "code") => (error === field ? t(`errors.${field}`) : undefined);
  const alert =
    error === "limited"
      ? t("errors.limited", { minutes: minutesSchema.parse(query.minutes) })
      : error === "expired" || error === "unavailable"
        ? t(`errors.${error}`)
        : undefined;
  const codeError =
    error === "wrongCode" ? t("errors.wrongCode", { left: leftSchema.parse(query.left) }) : fieldError("code");

  return (
    <section className="mx-auto max-w-md py-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      {alert && (
        <p role="alert" className={alertClass} data-testid="find-order-error">
          {alert}
        </p>
      )}
      {!smsSettings() ? (
        <p className="mt-4" data-testid="find-order-off">
          {t("off")}
        </p>
      ) : sent ? (
        <>
          <p
            role="status"
            className="mt-4 rounded-lg border border-stone-300 bg-white p-3"
            data-testid="find-order-sent"
          >
            {t("sent", { minutes })}
          </p>
          <form action={verifyLookupCodeAction} className="mt-6 space-y-4">
            <FormField
              id="code"
              name="code"
              label={t("code")}
              hint={t("codeHint")}
              error={codeError}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={12}
              required
              dir="ltr"
            />
            <button type="submit" className={`w-full ${primaryAction}`}>
              {t("codeSubmit")}
            </button>
          </form>
          <p className="mt-6 text-sm">
            <PageLink href="/orders/find" className="font-medium underline">
              {t("again")}
            </PageLink>
          </p>
        </>
      ) : (
        <>
          <p className="mt-2 text-stone-600">{t("intro")}</p>
          <form action={requestLookupCodeAction} className="mt-6 space-y-4">
            <FormField
              id="order"
              name="order"
              label={t("orderNumber")}
              hint={t("orderNumberHint")}
              error={fieldError("orderNumber")}
              defaultValue={typeof query.order === "string" ? (parseOrderNumber(query.order) ?? "") : ""}
              autoComplete="off"
              spellCheck={false}
              maxLength={100}
              required
              dir="ltr"
            />
            <FormField
              id="phone"
              name="phone"
              type="tel"
              label={t("phone")}
              hint={t("phoneHint")}
              error={fieldError("phone")}
              autoComplete="tel"
              maxLength={40}
              required
              dir="ltr"
            />
            <button type="submit" className={`w-full ${primaryAction}`}>
              {t("submit")}
            </button>
          </form>
        </>
      )}
    </section>
  );
}
