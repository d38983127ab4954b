import { isLocale, type Locale } from "./i18n/config";

/** A text in each of the shop's languages. */
type Words = Record<Locale, string>;

/** A logo drawn as one SVG path on a 64 × 64 square. */
interface PathLogo {
  /** The path's `d`: the header draws it in `colors.main`, the icon in `colors.paper` on `colors.main`. */
  path: string;
}

/** A logo as a picture file in public/: the header shows it 28 px high, the browser's icon fits it in a square. */
interface ImageLogo {
  /** Its address: its path in the public folder, from a slash (`/logo.png`). */
  src: `/${string}.${"png" | "svg" | "webp"}`;
  /** The file's own size in pixels: the page keeps its room before it loads (no layout shift). */
  width: number;
  height: number;
  /**
   * What it says to someone who cannot see it, in each language: the words it shows, if any. The header shows the
   * shop's name beside it, so a picture without words takes `""` (the name is not read twice).
   */
  alt: Words;
}

/** The shop's logo: {@link PathLogo} or {@link ImageLogo}. */
export type Logo = PathLogo | ImageLogo;

/**
 * The shop's identity, in one place: its name, words about it, logo, colours and how customers reach it. The pages
 * (header, headline, footer, titles, description), the e-mails, the browser's theme colour and the icon
 * (app/icon.tsx) all read it; change it here to make the shop yours. The other texts, which say what the shop does
 * rather than who it is, are the message catalogues' (lib/i18n/messages/). No secret: pages and e-mails show all of it.
 */
export const BRAND = {
  /** The shop's name in each language: the header, page titles, the e-mails. */
  name: { en: "Medina Market", ar: "سوق المدينة" } satisfies Words,
  /** The home page's headline: what the shop sells. */
  headline: { en: "Crafts and pantry from across Libya", ar: "حِرف ومؤن من أنحاء ليبيا" } satisfies Words,
  /** The pages' description: what search engines and link previews show under the name. */
  description: {
    en: "A demo shop with a hosted checkout for Libyan payment gateways.",
    ar: "متجر تجريبي بصفحة دفع مستضافة لبوابات الدفع الليبية.",
  } satisfies Words,
  /** The header's and the icon's logo; a picture file instead: `{ src: "/logo.png", width, height, alt }`. */
  logo: { path: "M16 46V24l16-10 16 10v22H38V34H26v12z" } satisfies Logo as Logo,
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
