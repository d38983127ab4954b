import { PageLink } from "./page-link";
import { primaryAction } from "./styles";

/** A link styled as the page's primary action. Plain `<a>` for URLs outside the shop (the payment page). */
export function LinkButton({
  href,
  children,
  className = "",
}: {
  href: string;
  children: React.ReactNode;
  className?: string;
}) {
  const classes = `inline-block ${primaryAction} ${className}`;
  return href.startsWith("/") ? (
    <PageLink href={href} className={classes}>
      {children}
    </PageLink>
  ) : (
    <a href={href} className={classes}>
      {children}
    </a>
  );
}
