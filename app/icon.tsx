import { BRAND } from "@/lib/brand";

// The browser tab's icon, drawn from the brand (lib/brand.ts): the logo in the page's colour on the main colour.
export const contentType = "image/svg+xml";

/** `GET /icon`: the icon as SVG, the same for every page and every build. */
export default function Icon(): Response {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="14" fill="${BRAND.colors.main}"/>` +
    `<path d="${BRAND.logoPath}" fill="${BRAND.colors.paper}"/></svg>`;
  return new Response(svg, { headers: { "Content-Type": contentType } });
}
