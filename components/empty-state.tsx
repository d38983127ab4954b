import { LinkButton } from "./link-button";

/** A centred message with one way forward: empty cart, unknown order, missing page. */
export function EmptyState({
  title,
  text,
  action,
  href,
}: {
  title: string;
  text: string;
  action: string;
  href: string;
}) {
  return (
    <section className="mx-auto max-w-md py-12 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-stone-600">{text}</p>
      <LinkButton href={href} className="mt-6">
        {action}
      </LinkButton>
    </section>
  );
}
