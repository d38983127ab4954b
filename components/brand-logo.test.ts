import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BRAND, type Logo } from "@/lib/brand";
import { BrandLogo } from "./brand-logo";

const render = (logo: Logo, locale: "en" | "ar") => renderToStaticMarkup(createElement(BrandLogo, { logo, locale }));

describe("the header's logo", () => {
  it("shows a picture file from public/ at its own size, with its words for each language", () => {
    const logo: Logo = {
      src: "/logo.png",
      width: 240,
      height: 80,
      alt: { en: "Dar Salam Home", ar: "دار السلام للمنزل" },
    };
    for (const [locale, alt] of [
      ["en", "Dar Salam Home"],
      ["ar", "دار السلام للمنزل"],
    ] as const) {
      // React also preloads it (a <link> before it): the header's picture is wanted at once.
      const html = render(logo, locale).match(/<img [^>]*>/)?.[0];
      // The width and height give the page the picture's room before it loads; the class sets the header's height.
      expect(html).toContain('src="/logo.png"');
      expect(html).toContain('width="240"');
      expect(html).toContain('height="80"');
      expect(html).toContain(`alt="${alt}"`);
      expect(html).toContain('class="h-7 w-auto shrink-0"');
    }
  });

  it("draws the shop's own path logo as an SVG hidden from screen readers (the name beside it is read)", () => {
    const html = render(BRAND.logo, "en");
    expect(html).toMatch(/^<svg [^>]*aria-hidden="true"/);
    expect(html).toContain('<path d="M16 46V24l16-10 16 10v22H38V34H26v12z"');
  });
});
