import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { LanguageSwitch } from "@/components/language-switch";
import { currentAdmin } from "@/lib/admin/auth";
import { shopName } from "@/lib/brand";
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
  ["reconcile", "/admin/reconcile"],
] as const;

/**
 * The back office's frame: its name (a link home), the language switch and, when signed in, its pages (home, orders,
 * products, delivery, reconciliation), who and how to sign out.
 */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const [locale, t, tLayout, admin] = await Promise.all([
    getLocale(),
    getTranslations("admin"),
    getTranslations("layout"),
    currentAdmin(),
  ]);
  return (
    <>
      <header className="border-b border-stone-300 bg-stone-900 text-white">
        <nav
          aria-label={t("title")}
          className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3"
        >
          <Link href="/admin" className="font-semibold tracking-tight">
            {shopName(locale)} · {t("title")}
          </Link>
          {admin && (
            <ul className="flex flex-wrap items-center gap-4 text-sm">
              {NAV.map(([page, href]) => (
                <li key={page}>
                  <Link href={href} className="underline-offset-2 hover:underline">
                    {t(`nav.${page}`)}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <LanguageSwitch
              to={locale === "ar" ? "en" : "ar"}
              label={tLayout("switchLanguage")}
              accessibleLabel={tLayout("switchLanguageLabel")}
              tone="dark"
            />
            {admin && (
              <form action={signOutAction} className="flex items-center gap-3">
                <span className="hidden text-stone-300 sm:inline">{t("signedInAs", { email: admin.email })}</span>
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
        {children}
      </main>
    </>
  );
}
