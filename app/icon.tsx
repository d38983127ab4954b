import { readFile } from "node:fs/promises";
import path from "node:path";
import { BRAND } from "@/lib/brand";

// The browser tab's icon, drawn from the brand (lib/brand.ts): a path logo in the page's colour on the main colour;
// a picture logo fitted in the square, embedded (an SVG icon may not load another file).
export const contentType = "image/svg+xml";

const TYPES = { png: "image/png", svg: "image/svg+xml", webp: "image/webp" } as const;

/** `GET /icon`: the icon as SVG, the same for every page and every build. */
export default async function Icon(): Promise<Response> {
  const { logo } = BRAND;
  let drawing: string;
  if ("path" in logo) {
    drawing =
      `<rect width="64" height="64" rx="14" fill="${BRAND.colors.main}"/>` +
      `<path d="${logo.path}" fill="${BRAND.colors.paper}"/>`;
  } else {
    // public/ is the project's in development and the standalone server's copy in production (scripts/build.mjs).
    const file = await readFile(path.join(process.cwd(), "public", logo.src));
    const type = TYPES[path.extname(logo.src).slice(1) as keyof typeof TYPES];
    drawing = `<image width="64" height="64" href="data:${type};base64,${file.toString("base64")}"/>`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${drawing}</svg>`;
  return new Response(svg, { headers: { "Content-Type": contentType } });
}
