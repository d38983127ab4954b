import { getLocale, getTranslations } from "next-intl/server";
import { setLocaleAction } from "@/app/actions";

/**
 * A one-button form that switches to the other language, named in that language; works without JavaScript. `tone`
 * suits the header it sits on.
 */
export async function LanguageSwitch({ tone = "light" }: { tone?: "light" | "dark" }) {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("layout")]);
  const to = locale === "ar" ? "en" : "ar";
  const colours = tone === "dark" ? "text-white hover:bg-stone-700" : "text-brand-800 hover:bg-sand-100";
  return (
    <form action={setLocaleAction}>
      <input type="hidden" name="locale" value={to} />
      <button
        type="submit"
        lang={to}
        aria-label={t("switchLanguageLabel")}
        className={`rounded-full px-3 py-1.5 text-sm font-medium ${colours}`}
      >
        {t("switchLanguage")}
      </button>
    </form>
  );
}
