import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { BRAND } from "@/lib/brand";
import { Action, Alert, EmailLayout, Facts, Lines, type EmailFrame, type EmailLine } from "./email-layout";

/** Everything one e-mail about an order says, already in its reader's language and formatted (lib/email/render.ts). */
export interface OrderEmailProps extends EmailFrame {
  /** What needs the reader's attention, spelled out (the merchant's notice of a flagged order); no box when absent. */
  alert?: { title: string; items: string[] };
  /** The steps of the goods' way, each done or not yet, in order (the customer's news of a step); none when absent. */
  progress?: { label: string; done: boolean }[];
  facts: [string, string][];
  headings: { product: string; quantity: string; price: string; total: string };
  lines: EmailLine[];
  /**
   * The lines after the goods: the delivery's, for an order delivered to an address; the cash on delivery fee; a promo
   * code's discount (its amount already with its minus sign).
   */
  fees?: { label: string; amount: string }[];
  totalLabel: string;
  total: string;
  link: { href: string; label: string; note?: string };
}

/**
 * An e-mail about one order: the customer's receipt (a link to the order page), the customer's news of a step of their
 * goods' way (packed, out for delivery, delivered, ready for pickup, picked up: the way so far) and the merchant's
 * notice (any flags, a link to the back office) are the same message for their readers: an introduction, the facts,
 * the lines as sold with the total, and a link.
 */
export function OrderEmail(props: OrderEmailProps) {
  return (
    <EmailLayout {...props}>
      {props.alert && props.alert.items.length > 0 && (
        <Alert title={props.alert.title} items={props.alert.items} dir={props.dir} />
      )}
      {props.progress && (
        <Section dir={props.dir} data-testid="email-progress" style={{ margin: "8px 0" }}>
          <Text style={{ fontSize: 14, lineHeight: "20px", margin: 0 }}>
            {props.progress.map((step, index) => (
              <span
                key={step.label}
                style={{ color: step.done ? BRAND.colors.main : "#78716c", fontWeight: step.done ? 700 : 400 }}
              >
                {`${index > 0 ? " · " : ""}${step.done ? "✓" : "○"} ${step.label}`}
              </span>
            ))}
          </Text>
        </Section>
      )}
      <Facts facts={props.facts} dir={props.dir} />
      <Lines
        dir={props.dir}
        headings={props.headings}
        lines={props.lines}
        fees={props.fees}
        totalLabel={props.totalLabel}
        total={props.total}
      />
      <Action {...props.link} />
    </EmailLayout>
  );
}
