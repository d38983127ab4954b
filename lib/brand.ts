import { isLocale, type Locale } from "./i18n/config";

/**
 * The shop's identity, in one place: its name, logo, colours and how customers reach it. The pages (header, footer,
 * titles), the e-mails, the browser's theme colour and the icon (app/icon.tsx) all read it; change it here to make
 * the shop yours. No secret: pages and e-mails show all of it.
 */
export const BRAND = {
  /** The shop's name in each language: the header, page titles, the e-mails. */
  name: { en: "Medina Market", ar: "سوق المدينة" } satisfies Record<Locale, string>,
  /**
   * The logo: one SVG path drawn on a 64 × 64 square (the icon: the path in `colors.paper` on `colors.main`; the
   * header: the path in `colors.main`).
   */
  logoPath: "M16 46V24l16-10 16 10v22H38V34H26v12z",
  colors: {
    /** Buttons, links, the e-mails' heading, the browser's theme colour and the icon. */
    main: "#115c3b",
    /** Hover on a main-coloured button; text on a light tint. */
    dark: "#0d4a30",
    /** Focus outlines and borders on a light background. */
    bright: "#17724a",
    /** Light tints behind text in the main colour (notices, badges). */
    tint: "#dcefe4",
    faint: "#f2f8f5",
    /** The page's background and the logo on the icon. */
    paper: "#fbf8f3",
  },
  /** How customers reach the merchant: the shop's footer and the e-mails show it. */
  contact: { email: "hello@medina.example", phone: "+218 21 000 0000" },
} as const;

/** The shop's name in `locale` (English for a language the shop does not have). */
export function shopName(locale: string): string {
  return BRAND.name[isLocale(locale) ? locale : "en"];
}
