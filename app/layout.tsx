import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { LanguageSwitch } from "@/components/language-switch";
import { direction, type Locale } from "@/lib/i18n/config";
import { getSession } from "@/lib/session";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("meta");
  return { title: { default: t("shopName"), template: `%s · ${t("shopName")}` }, description: t("description") };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#115c3b" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [locale, t, tMeta, { cart }] = await Promise.all([getLocale() as Promise<Locale>, getTranslations("layout"), getTranslations("meta"), getSession()]);
  const count = cart.lines.reduce((n, line) => n + line.quantity, 0);
  return (
    <html lang={locale} dir={direction(locale)}>
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          {t("skip")}
        </a>
        <header className="border-b border-sand-200 bg-white">
          <nav aria-label={t("mainNav")} className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
            <Link href="/" className="text-lg font-semibold tracking-tight text-brand-800">
              {tMeta("shopName")}
            </Link>
            <div className="flex items-center gap-2">
              <LanguageSwitch to={locale === "ar" ? "en" : "ar"} label={t("switchLanguage")} accessibleLabel={t("switchLanguageLabel")} />
              <Link href="/orders" className="rounded-full px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-sand-100">
                {t("orders")}
              </Link>
              <Link href="/cart" className="rounded-full border border-sand-200 px-4 py-1.5 text-sm font-medium hover:bg-sand-100" aria-label={t("cartLabel", { count })}>
                {t("cart")}{" "}
                <span className="ms-1 rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white" data-testid="cart-count">
                  {count}
                </span>
              </Link>
            </div>
          </nav>
        </header>
        <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
          {children}
        </main>
        <footer className="border-t border-sand-200 bg-white">
          <p className="mx-auto max-w-5xl px-4 py-4 text-sm text-stone-600">{t("footer")}</p>
        </footer>
      </body>
    </html>
  );
}
