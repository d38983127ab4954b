import { setLocaleAction } from "@/app/actions";
import type { Locale } from "@/lib/i18n/config";

/**
 * A one-button form that switches to the other language; works without JavaScript. `tone` suits the header it sits on.
 */
export function LanguageSwitch({
  to,
  label,
  accessibleLabel,
  tone = "light",
}: {
  to: Locale;
  label: string;
  accessibleLabel: string;
  tone?: "light" | "dark";
}) {
  const colours = tone === "dark" ? "text-white hover:bg-stone-700" : "text-brand-800 hover:bg-sand-100";
  return (
    <form action={setLocaleAction}>
      <input type="hidden" name="locale" value={to} />
      <button
        type="submit"
        lang={to}
        aria-label={accessibleLabel}
        className={`rounded-full px-3 py-1.5 text-sm font-medium ${colours}`}
      >
        {label}
      </button>
    </form>
  );
}
