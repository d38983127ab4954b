import { Action, EmailLayout, Facts, type EmailFrame } from "./email-layout";

/** Everything the sign-in link e-mail says, already in its reader's language (lib/email/sign-in-link.ts). */
export interface SignInLinkEmailProps extends EmailFrame {
  /** The account, when and from which address the link was asked for, until when it works. */
  facts: [string, string][];
  link: { href: string; label: string; note: string };
}

/**
 * The e-mail that signs an admin in to the back office once: what it is, the button, what was asked and from where,
 * and what to do if the reader did not ask for it.
 */
export function SignInLinkEmail(props: SignInLinkEmailProps) {
  return (
    <EmailLayout {...props}>
      <Action {...props.link} />
      <Facts facts={props.facts} dir={props.dir} />
    </EmailLayout>
  );
}
