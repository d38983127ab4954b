import { Action, EmailLayout, Facts, Intro, Lines, type Direction, type EmailLine } from "./email-layout";

/** Everything the customer's receipt says, already in the order's language and formatted. */
export interface ReceiptEmailProps {
  lang: string;
  dir: Direction;
  shopName: string;
  preview: string;
  heading: string;
  paragraphs: string[];
  facts: [string, string][];
  headings: { product: string; quantity: string; price: string; total: string };
  lines: EmailLine[];
  totalLabel: string;
  total: string;
  link: { href: string; label: string; note: string };
  footer: string;
}

/** The customer's receipt for a paid order: the order number, its lines as sold, the total, and a link to the order. */
export function ReceiptEmail(props: ReceiptEmailProps) {
  return (
    <EmailLayout
      lang={props.lang}
      dir={props.dir}
      preview={props.preview}
      shopName={props.shopName}
      footer={props.footer}
    >
      <Intro heading={props.heading} paragraphs={props.paragraphs} />
      <Facts facts={props.facts} dir={props.dir} />
      <Lines
        dir={props.dir}
        headings={props.headings}
        lines={props.lines}
        totalLabel={props.totalLabel}
        total={props.total}
      />
      <Action {...props.link} />
    </EmailLayout>
  );
}
