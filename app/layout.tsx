import type { Metadata, Viewport } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { BRAND, shopName } from "@/lib/brand";
import { direction } from "@/lib/i18n/config";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const locale = await getLocale();
  const name = shopName(locale);
  return { title: { default: name, template: `%s · ${name}` }, description: BRAND.description[locale] };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: BRAND.colors.main };

/** The brand's colours as the CSS variables app/globals.css gives Tailwind's `brand-*` colours. */
const brandColors = Object.fromEntries(
  Object.entries(BRAND.colors).map(([name, value]) => [`--brand-${name}`, value]),
) as React.CSSProperties;

/**
 * The document: language and direction, the skip link. The shop (app/(shop)) and the back office (app/admin) add their
 * own frames.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("layout")]);
  return (
    <html lang={locale} dir={direction(locale)} style={brandColors}>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          {t("skip")}
        </a>
        {children}
      </body>
    </html>
  );
}
