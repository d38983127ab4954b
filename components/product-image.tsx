import { preload } from "react-dom";

/**
 * A product's picture as a plain `<img>` rendered on the server, as next/image rendered it. The catalogue's pictures
 * are SVGs, which next/image serves as they are (it never optimises an SVG), so all it added was a client component
 * per picture — its code on every page with a picture, and a hydration per picture. `priority` pictures are
 * preloaded (a `Link` header, as next/image's `priority` did) and load at once; the others load when scrolled near.
 */
export function ProductImage({
  src,
  size,
  priority = false,
  className,
}: {
  src: string;
  size: number;
  priority?: boolean;
  className: string;
}) {
  if (priority) preload(src, { as: "image" });
  return (
    // eslint-disable-next-line @next/next/no-img-element -- see above: nothing for next/image to do
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      decoding="async"
      loading={priority ? undefined : "lazy"}
      className={className}
    />
  );
}
