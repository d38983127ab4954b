import { getTranslations } from "next-intl/server";
import { describeDbFailure } from "@/lib/db/errors";
import { logger } from "@/lib/log";
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

/**
 * What a shop page reads, or the page that says the database cannot be reached: runs `read`; when it throws, logs
 * `event` with the failure (lib/db/errors.ts) and gives {@link DatabaseUnavailable} in the words of `namespace`
 * (`home`: the shop's, `order`: an order's), linking to `href`, the page again.
 * @returns `{ data }` (what `read` gave), or `{ unavailable }`, the page to return instead.
 */
export async function readOrUnavailable<T>(
  read: () => Promise<T>,
  { event, href, namespace = "home" }: { event: string; href: string; namespace?: "home" | "order" },
): Promise<{ data: T; unavailable?: undefined } | { unavailable: React.ReactElement }> {
  try {
    return { data: await read() };
  } catch (error) {
    logger.error({ event, ...describeDbFailure(error) });
    const t = await getTranslations(namespace);
    return {
      unavailable: (
        <DatabaseUnavailable
          title={t("unavailable.title")}
          text={t("unavailable.text")}
          reload={t("unavailable.reload")}
          href={href}
        />
      ),
    };
  }
}
