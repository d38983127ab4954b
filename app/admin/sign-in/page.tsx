import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { FormField } from "@/components/form-field";
import { primaryAction } from "@/components/styles";
import { currentAdmin } from "@/lib/admin/auth";
import { signInAction } from "../actions";
import { EmailField } from "./email-field";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.signIn"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const errorSchema = z.enum(["invalid", "locked", "busy", "missing", "notAnEmail"]);
const signedOutSchema = z.enum(["everywhere", "this-browser"]);
const minutesSchema = z.coerce.number().int().min(1).max(15).catch(15);

/**
 * The back office's sign-in: a plain form posted to a server action, no JavaScript needed, and the way to a one-time
 * link by e-mail for an admin the password sign-in keeps waiting or locked out.
 */
export default async function SignInPage({ searchParams }: Props) {
  const [query, t, admin] = await Promise.all([searchParams, getTranslations("admin.signIn"), currentAdmin()]);
  if (admin) redirect("/admin");
  const error = errorSchema.safeParse(query.error);
  const message = error.success
    ? error.data === "locked"
      ? t("locked", { minutes: minutesSchema.parse(query.minutes) })
      : t(error.data)
    : undefined;
  const signedOut = signedOutSchema.safeParse(query["signed-out"]);
  return (
    <section className="mx-auto max-w-sm py-8">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {message && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
          data-testid="sign-in-error"
        >
          {message}
        </p>
      )}
      {signedOut.success && !message && (
        <p
          role="status"
          className={`mt-4 rounded-lg border p-3 ${signedOut.data === "everywhere" ? "border-stone-300 bg-white" : "border-amber-300 bg-amber-50 text-amber-950"}`}
          data-testid="signed-out"
        >
          {signedOut.data === "everywhere" ? t("signedOut") : t("signedOutHereOnly")}
        </p>
      )}
      <form action={signInAction} className="mt-6 space-y-4">
        <EmailField label={t("email")} />
        <FormField
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          dir="ltr"
          label={t("password")}
        />
        <button type="submit" className={`w-full ${primaryAction}`}>
          {t("submit")}
        </button>
      </form>
      <p className="mt-6 text-sm">
        {t("linkPrompt")}{" "}
        <PageLink href="/admin/sign-in/link" className="font-medium underline">
          {t("linkAction")}
        </PageLink>
      </p>
    </section>
  );
}
