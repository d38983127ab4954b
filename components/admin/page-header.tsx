import { PageLink } from "@/components/page-link";
import { classes } from "../styles";
import { CardMessage } from "./section";

/**
 * A link in the back office's text, in the brand's colour and underlined: the way back above a page to its list, a
 * link in a sentence or a list's row (`small` for the smaller text of a form's page). Takes what a `Link` takes.
 */
export function TextLink({
  small = false,
  className,
  ...link
}: React.ComponentProps<typeof PageLink> & { small?: boolean }) {
  return (
    <PageLink
      {...link}
      className={classes(small && "text-sm", className, "font-medium text-brand-800 underline underline-offset-2")}
    />
  );
}

/**
 * A detail page's answer when what its address names is not there (a removed product, a mistyped id): the way back
 * to the list (a {@link TextLink}), then what was not found, announced.
 */
export function NotFound({ back, children }: { back: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="space-y-4">
      {back}
      <CardMessage role="alert">{children}</CardMessage>
    </section>
  );
}

/**
 * A back-office page's title: its `<h1>`, with `aside` (actions, a status) at the end of the line when given and
 * `children` (what else the page says first) under it, after `intro` (a sentence or two about the page). `dir="auto"`
 * for a title that is the merchant's own text.
 */
export function PageHeader({
  title,
  dir,
  aside,
  intro,
  children,
}: {
  title: React.ReactNode;
  dir?: "auto";
  aside?: React.ReactNode;
  intro?: string;
  children?: React.ReactNode;
}) {
  const heading = (
    <h1 className="text-2xl font-semibold tracking-tight" dir={dir}>
      {title}
    </h1>
  );
  const line = aside ? (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {heading}
      {aside}
    </div>
  ) : (
    heading
  );
  return intro || children ? (
    <div>
      {line}
      {intro && <p className="mt-2 max-w-3xl text-stone-700">{intro}</p>}
      {children}
    </div>
  ) : (
    line
  );
}

/**
 * A page that holds a form under a link back to its list (a new product, a new city, pictures for many products): the
 * link (`back`: where to and its text), the title, then `children`. `roomy` spaces them more, for a page with rules
 * between its title and its form.
 */
export function FormPage({
  back,
  title,
  dir,
  roomy = false,
  children,
}: {
  back: { href: string; label: string };
  title: React.ReactNode;
  dir?: "auto";
  roomy?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section className={roomy ? "space-y-6" : "space-y-4"}>
      <TextLink href={back.href} small>
        {back.label}
      </TextLink>
      <PageHeader title={title} dir={dir} />
      {children}
    </section>
  );
}
