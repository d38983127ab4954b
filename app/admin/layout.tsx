import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getLocale, getTranslations } from "next-intl/server";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { LanguageSwitch } from "@/components/language-switch";
import { currentAdmin } from "@/lib/admin/auth";
import { shopName } from "@/lib/brand";
import { describeDbFailure, isDbUnavailable } from "@/lib/db/errors";
import { logger } from "@/lib/log";
import { signOutAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return { title: { default: t("admin"), template: `%s · ${t("admin")}` }, robots: { index: false, follow: false } };
}

/** The back office's pages, in its navigation's order. */
const NAV = [
  ["home", "/admin"],
  ["orders", "/admin/orders"],
  ["products", "/admin/products"],
  ["delivery", "/admin/delivery"],
  ["promo", "/admin/promo-codes"],
  ["reconcile", "/admin/reconcile"],
] as const;

/**
 * The back office's frame: its name (a link home), the language switch and, when signed in, its pages (home, orders,
 * products, delivery, promo codes, reconciliation), who and how to sign out. While the database cannot be reached it shows, in
 * place of the page, what the shop's pages show then (components/database-unavailable.tsx): no page of the back office
 * can do without it, so none is rendered to fail with a bare 500.
 */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const [locale, t, admin] = await Promise.all([
    getLocale(),
    getTranslations("admin"),
    currentAdmin().catch((error: unknown) => {
      if (!isDbUnavailable(error)) throw error;
      logger.error({ event: "admin_page_unavailable", ...describeDbFailure(error) });
      return "unavailable" as const;
    }),
  ]);
  const signedIn = admin !== null && admin !== "unavailable" ? admin : null;
  return (
    <>
      <header className="border-b border-stone-300 bg-stone-900 text-white">
        <nav
          aria-label={t("title")}
          className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3"
        >
          <PageLink href="/admin" className="font-semibold tracking-tight">
            {shopName(locale)} · {t("title")}
          </PageLink>
          {signedIn && (
            <ul className="flex flex-wrap items-center gap-4 text-sm">
              {NAV.map(([page, href]) => (
                <li key={page}>
                  <PageLink href={href} className="underline-offset-2 hover:underline">
                    {t(`nav.${page}`)}
                  </PageLink>
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <LanguageSwitch tone="dark" />
            {signedIn && (
              <form action={signOutAction} className="flex items-center gap-3">
                <span className="hidden text-stone-300 sm:inline">{t("signedInAs", { email: signedIn.email })}</span>
                <button
                  type="submit"
                  className="rounded-full border border-stone-500 px-3 py-1 whitespace-nowrap hover:bg-stone-700"
                >
                  {t("signOut")}
                </button>
              </form>
            )}
          </div>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        {admin === "unavailable" ? (
          // `href=""`: this very address again, query included, whichever page it was.
          <DatabaseUnavailable
            title={t("unavailable.title")}
            text={t("unavailable.text")}
            reload={t("unavailable.reload")}
            href=""
          />
        ) : (
          children
        )}
      </main>
    </>
  );
}
