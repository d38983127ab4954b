import { preload } from "react-dom";

/**
 * A product's picture as a plain `<img>` rendered on the server. The pictures are stored already sized and encoded
 * (WebP, lib/catalog/pictures.ts), so next/image would have nothing to do but add a client component per picture — its
 * code on every page with a picture, and a hydration per picture. `priority` pictures are preloaded (a `Link` header,
 * as next/image's `priority` did) and load at once; the others load when scrolled near. A product without a picture
 * gets a plain tile of the same size.
 */
export function ProductImage({
  src,
  size,
  priority = false,
  className,
}: {
  src: string | undefined;
  size: number;
  priority?: boolean;
  className: string;
}) {
  if (!src) return <div aria-hidden="true" style={{ maxWidth: size }} className={className} />;
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
