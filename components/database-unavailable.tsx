import { LinkButton } from "./link-button";

/**
 * What a page that reads the database says while it cannot be reached — for orders, that a payment is safe; for the
 * shop, that nothing is lost — with a link to try again. Part of the page itself, not the error page, which needs
 * JavaScript to show anything.
 */
export function DatabaseUnavailable({
  title,
  text,
  reload,
  href,
  notice,
}: {
  title: string;
  text: string;
  reload: string;
  /** The page again (with its query, if any). */
  href: string;
  /** A notice to keep above it (the order page's outcome of a return), if any. */
  notice?: React.ReactNode;
}) {
  return (
    <section className="mx-auto max-w-lg">
      {notice}
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-stone-700">{text}</p>
      <LinkButton href={href} className="mt-4">
        {reload}
      </LinkButton>
    </section>
  );
}
