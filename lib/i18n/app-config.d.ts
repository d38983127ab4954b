import type { LOCALES } from "./config";
import type messages from "./messages/en.json";

// next-intl's types, told once: the shop's languages and the shape of its messages (English is the reference;
// lib/i18n/messages.test.ts keeps Arabic's keys the same). getLocale() then returns a Locale, and every t("key")
// is checked against the catalogue at compile time. AppConfig is declared in use-intl, which next-intl re-exports,
// so that is the module augmented.
declare module "use-intl" {
  interface AppConfig {
    Locale: (typeof LOCALES)[number];
    Messages: typeof messages;
  }
}
