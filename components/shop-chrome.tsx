import { getLocale, getTranslations } from "next-intl/server";
import { BRAND, shopName } from "@/lib/brand";
import { getSession } from "@/lib/session";
import { BrandLogo } from "./brand-logo";
import { LanguageSwitch } from "./language-switch";
import { PageLink } from "./page-link";

/** The shop's header (name, language, orders, cart with its count), main area and footer around a page. */
export async function ShopChrome({ children }: { children: React.ReactNode }) {
  const [locale, t, { cart }] = await Promise.all([getLocale(), getTranslations("layout"), getSession()]);
  const count = cart.lines.reduce((n, line) => n + line.quantity, 0);
  return (
    <>
      <header className="border-b border-sand-200 bg-white">
        <nav aria-label={t("mainNav")} className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <PageLink href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-brand-800">
            <BrandLogo logo={BRAND.logo} locale={locale} />
            {shopName(locale)}
          </PageLink>
          <div className="flex items-center gap-2">
            <LanguageSwitch />
            <PageLink
              href="/orders"
              className="rounded-full px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-sand-100"
            >
              {t("orders")}
            </PageLink>
            <PageLink
              href="/cart"
              className="rounded-full border border-sand-200 px-4 py-1.5 text-sm font-medium hover:bg-sand-100"
              aria-label={t("cartLabel", { count })}
            >
              {t("cart")}{" "}
              <span className="ms-1 rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white" data-testid="cart-count">
                {count}
              </span>
            </PageLink>
          </div>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="border-t border-sand-200 bg-white">
        <div className="mx-auto max-w-5xl px-4 py-4 text-sm text-stone-600">
          <p>{t("footer")}</p>
          <p className="mt-1">
            {t("contact")}{" "}
            <a href={`mailto:${BRAND.contact.email}`} className="underline">
              {BRAND.contact.email}
            </a>{" "}
            ·{" "}
            <a href={`tel:${BRAND.contact.phone.replaceAll(" ", "")}`} className="underline" dir="ltr">
              {BRAND.contact.phone}
            </a>
          </p>
        </div>
      </footer>
    </>
  );
}
