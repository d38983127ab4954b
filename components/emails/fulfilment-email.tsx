import { Section, Text } from "@react-email/components";
import { Action, EmailLayout, Facts, Intro, Lines, type Direction, type EmailLine } from "./email-layout";

/**
 * Everything the customer's e-mail about a step of their goods' way says, already in the order's language and
 * formatted (lib/email/render.ts).
 */
export interface FulfilmentEmailProps {
  lang: string;
  dir: Direction;
  shopName: string;
  preview: string;
  heading: string;
  paragraphs: string[];
  /** The steps of the order's way, each done or not yet, in order. */
  progress: { label: string; done: boolean }[];
  /** Where the goods go or wait: the delivery address, or the pickup address and hours, as label and value pairs. */
  facts: [string, string][];
  headings: { product: string; quantity: string; price: string; total: string };
  lines: EmailLine[];
  fee?: { label: string; amount: string };
  totalLabel: string;
  total: string;
  link: { href: string; label: string; note?: string };
  footer: string;
}

/**
 * The customer's news that their order moved (packed, out for delivery, delivered, ready for pickup, picked up): what
 * happened, the way so far, where the goods go (or where to collect them, and when), the items, and the order's link.
 */
export function FulfilmentEmail(props: FulfilmentEmailProps) {
  return (
    <EmailLayout
      lang={props.lang}
      dir={props.dir}
      preview={props.preview}
      shopName={props.shopName}
      footer={props.footer}
    >
      <Intro heading={props.heading} paragraphs={props.paragraphs} />
      <Section dir={props.dir} data-testid="email-progress" style={{ margin: "8px 0" }}>
        <Text style={{ fontSize: 14, lineHeight: "20px", margin: 0 }}>
          {props.progress.map((step, index) => (
            <span
              key={step.label}
              style={{ color: step.done ? "#115c3b" : "#78716c", fontWeight: step.done ? 700 : 400 }}
            >
              {`${index > 0 ? " · " : ""}${step.done ? "✓" : "○"} ${step.label}`}
            </span>
          ))}
        </Text>
      </Section>
      <Facts facts={props.facts} dir={props.dir} />
      <Lines
        dir={props.dir}
        headings={props.headings}
        lines={props.lines}
        fee={props.fee}
        totalLabel={props.totalLabel}
        total={props.total}
      />
      <Action {...props.link} />
    </EmailLayout>
  );
}
