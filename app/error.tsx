"use client";

import { useSyncExternalStore } from "react";
import { primaryAction } from "@/components/styles";
import { ERROR_PAGE_TEXT } from "@/lib/i18n/error-page";

const documentLocale = () => document.documentElement.lang;

/** Last-resort error page: a plain-language message instead of a bare 500. The cart lives in the cookie, untouched. */
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const lang = useSyncExternalStore(
    () => () => {},
    documentLocale,
    () => "en",
  );
  const t = ERROR_PAGE_TEXT[lang === "ar" ? "ar" : "en"];
  return (
    <section className="mx-auto max-w-md py-12 text-center">
      <h1 className="text-2xl font-semibold">{t.title}</h1>
      <p className="mt-2 text-stone-600">{t.text}</p>
      <button type="button" onClick={reset} className={`mt-6 ${primaryAction}`}>
        {t.retry}
      </button>
    </section>
  );
}
