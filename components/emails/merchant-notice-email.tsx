import { Action, Alert, EmailLayout, Facts, Intro, Lines, type Direction, type EmailLine } from "./email-layout";

/** Everything the merchant's notice says, already in the merchant's language and formatted. */
export interface MerchantNoticeEmailProps {
  lang: string;
  dir: Direction;
  shopName: string;
  preview: string;
  heading: string;
  paragraphs: string[];
  /** What needs the merchant's attention, spelled out; no box when empty. */
  flags: { title: string; items: string[] };
  facts: [string, string][];
  headings: { product: string; quantity: string; price: string; total: string };
  lines: EmailLine[];
  totalLabel: string;
  total: string;
  link: { href: string; label: string };
  footer: string;
}

/**
 * The merchant's notice of a paid order, or of a payment that needs a look: the order, the customer, the total, any
 * flags, and a link to the order in the back office.
 */
export function MerchantNoticeEmail(props: MerchantNoticeEmailProps) {
  return (
    <EmailLayout
      lang={props.lang}
      dir={props.dir}
      preview={props.preview}
      shopName={props.shopName}
      footer={props.footer}
    >
      <Intro heading={props.heading} paragraphs={props.paragraphs} />
      {props.flags.items.length > 0 && <Alert title={props.flags.title} items={props.flags.items} dir={props.dir} />}
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
