import Link from "next/link";

/** The primary call to action, as a link: same look as the primary submit button. */
export const primaryAction = "inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800";

/** A link styled as the page's primary action. Plain `<a>` for URLs outside the shop (the payment page). */
export function LinkButton({ href, children, className = "" }: { href: string; children: React.ReactNode; className?: string }) {
  const classes = `${primaryAction} ${className}`;
  return href.startsWith("/") ? (
    <Link href={href} className={classes}>
      {children}
    </Link>
  ) : (
    <a href={href} className={classes}>
      {children}
    </a>
  );
}
