import type { Locale } from "@/lib/i18n/config";
import type { Logo } from "@/lib/brand";

/**
 * The shop's logo (lib/brand.ts) as the header shows it, 28 px high: the SVG path in the text's colour, or the picture
 * file at its own width for that height. The picture's width and height attributes give the page its room before it
 * loads, so nothing moves, in either direction of text. A plain `<img>`: the file is the merchant's, already sized,
 * and next/image would add a client component to every page for it.
 */
export function BrandLogo({ logo, locale }: { logo: Logo; locale: Locale }) {
  if ("path" in logo) {
    return (
      <svg viewBox="0 0 64 64" aria-hidden="true" className="size-7 shrink-0">
        <path d={logo.path} fill="currentColor" />
      </svg>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- see above: nothing for next/image to do
    <img
      src={logo.src}
      width={logo.width}
      height={logo.height}
      alt={logo.alt[locale]}
      className="h-7 w-auto shrink-0"
    />
  );
}
