import { Action, EmailLayout, Facts, Intro, type Direction } from "./email-layout";

/** Everything the sign-in link e-mail says, already in its reader's language (lib/email/sign-in-link.ts). */
export interface SignInLinkEmailProps {
  lang: string;
  dir: Direction;
  shopName: string;
  preview: string;
  heading: string;
  paragraphs: string[];
  /** The account, when and from which address the link was asked for, until when it works. */
  facts: [string, string][];
  link: { href: string; label: string; note: string };
  footer: string;
}

/**
 * The e-mail that signs an admin in to the back office once: what it is, the button, what was asked and from where,
 * and what to do if the reader did not ask for it.
 */
export function SignInLinkEmail(props: SignInLinkEmailProps) {
  return (
    <EmailLayout
      lang={props.lang}
      dir={props.dir}
      preview={props.preview}
      shopName={props.shopName}
      footer={props.footer}
    >
      <Intro heading={props.heading} paragraphs={props.paragraphs} />
      <Action {...props.link} />
      <Facts facts={props.facts} dir={props.dir} />
    </EmailLayout>
  );
}
