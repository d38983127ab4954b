import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { primaryAction } from "@/components/styles";
import { currentAdmin } from "@/lib/admin/auth";
import { linkTokenSchema } from "@/lib/admin/sign-in-form";
import { findSignInLink, LINK_TTL_MS } from "@/lib/admin/sign-in-links";
import { getDb } from "@/lib/db/client";
import { emailSettings } from "@/lib/env";
import { requestSignInLinkAction, signInWithLinkAction } from "../../actions";
import { EmailField } from "../email-field";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.signInLink"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const errorSchema = z.enum(["missing", "notAnEmail", "limited", "usedOrExpired"]);
const minutesSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(LINK_TTL_MS / 60_000)
  .catch(LINK_TTL_MS / 60_000);
const alertClass = "mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900";

/**
 * One-time sign-in links (lib/admin/sign-in-links.ts). Without a token: the form that asks for one. With the token of
 * a link that still works: whose account it opens and a button that signs in, so the link is used by the admin's own
 * press (a POST), never by opening it (mail scanners open links). Reads only; no JavaScript needed.
 */
export default async function SignInLinkPage({ searchParams }: Props) {
  const [query, t, admin] = await Promise.all([searchParams, getTranslations("admin.signInLink"), currentAdmin()]);
  if (admin) redirect("/admin");
  const minutes = LINK_TTL_MS / 60_000;
  const token = linkTokenSchema.safeParse(query.token);
  const link = token.success ? await findSignInLink(getDb(), token.data) : null;

  if (token.success && link) {
    return (
      <section className="mx-auto max-w-sm py-8">
        <h1 className="text-2xl font-semibold">{t("confirmTitle")}</h1>
        <p className="mt-4">{t("confirm", { email: link.email })}</p>
        <form action={signInWithLinkAction} className="mt-6">
          <input type="hidden" name="token" value={token.data} />
          <button type="submit" className={`w-full ${primaryAction}`}>
            {t("confirmSubmit")}
          </button>
        </form>
      </section>
    );
  }

  // A token that no longer works (or never did) says so, whatever else the address holds.
  const error = query.token !== undefined ? "usedOrExpired" : errorSchema.safeParse(query.error).data;
  const message =
    error === "limited" ? t("limited", { minutes: minutesSchema.parse(query.minutes) }) : error && t(error);
  const emailOn = emailSettings() !== null;
  return (
    <section className="mx-auto max-w-sm py-8">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {message && (
        <p role="alert" className={alertClass} data-testid="sign-in-link-error">
          {message}
        </p>
      )}
      {query.sent && !message && (
        <p
          role="status"
          className="mt-4 rounded-lg border border-stone-300 bg-white p-3"
          data-testid="sign-in-link-sent"
        >
          {t("sent", { minutes })}
        </p>
      )}
      {emailOn ? (
        <>
          <p className="mt-4">{t("intro", { minutes })}</p>
          <form action={requestSignInLinkAction} className="mt-6 space-y-4">
            <EmailField label={t("email")} />
            <button type="submit" className={`w-full ${primaryAction}`}>
              {t("submit")}
            </button>
          </form>
        </>
      ) : (
        <p className="mt-4" data-testid="sign-in-link-off">
          {t("emailOff")}
        </p>
      )}
      <p className="mt-6 text-sm">
        <PageLink href="/admin/sign-in" className="font-medium underline">
          {t("back")}
        </PageLink>
      </p>
    </section>
  );
}
