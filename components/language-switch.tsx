import { setLocaleAction } from "@/app/actions";
import type { Locale } from "@/lib/i18n/config";

/** A one-button form that switches to the other language; works without JavaScript. */
export function LanguageSwitch({ to, label, accessibleLabel }: { to: Locale; label: string; accessibleLabel: string }) {
  return (
    <form action={setLocaleAction}>
      <input type="hidden" name="locale" value={to} />
      <button type="submit" lang={to} aria-label={accessibleLabel} className="rounded-full px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-sand-100">
        {label}
      </button>
    </form>
  );
}
