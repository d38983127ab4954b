import { Section } from "./section";

/**
 * What keeps something from going ahead, in red: a file's problems before an import or a reconciliation, an order's
 * flags. Under the title, `help` (a paragraph each), then the problems: `items` as a list of messages, or `children`
 * (a table, forms).
 */
export function Problems({
  id = "problems",
  title,
  help,
  testId,
  items,
  children,
}: {
  id?: string;
  title: string;
  help: string | string[];
  testId: string;
  items?: string[];
  children?: React.ReactNode;
}) {
  return (
    <Section id={id} title={title} tone="problem" testId={testId}>
      {(Array.isArray(help) ? help : [help]).map((text) => (
        <p key={text} className="mt-1 text-sm">
          {text}
        </p>
      ))}
      {items && (
        <ul className="mt-2 list-disc space-y-1 ps-5">
          {items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      )}
      {children}
    </Section>
  );
}
