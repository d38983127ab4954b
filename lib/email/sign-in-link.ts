import "server-only";
import { createFormatter, createTranslator } from "next-intl";
import { after } from "next/server";
import { createElement } from "react";
import { SignInLinkEmail } from "../../components/emails/sign-in-link-email";
import type { SignInLink } from "../admin/sign-in-links";
import { direction, type Locale } from "../i18n/config";
import ar from "../i18n/messages/ar.json";
import en from "../i18n/messages/en.json";
import { logger } from "../log";
import { htmlAndText, type RenderedEmail } from "./render";
import { emailSettings, type EmailSettings } from "../env";
import { createMailTransport } from "./settings";
import { BRAND } from "../brand";
import { TIME_ZONE } from "../time";

/**
 * The back office's sign-in link e-mail (lib/admin/sign-in-links.ts), in the language of the page it was asked from:
 * rendered from components/emails/sign-in-link-email.tsx with the texts `email.signInLink.*`, and sent straight over
 * SMTP (not through the order outbox: it is about no order, and a link that arrives late is no use; whoever asked can
 * ask again).
 */

const catalogues: Record<Locale, typeof en> = { en, ar };

/**
 * The link's page: the token in the query, read there and posted back by the admin's own press of a button, never
 * used by the GET itself (mail scanners open links).
 */
function signInLinkUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/admin/sign-in/link?token=${token}`;
}

/**
 * Renders the e-mail in `locale`.
 * @param siteUrl the shop's public origin, for the link.
 * @returns the subject, the HTML (self-contained: inline styles, nothing fetched) and the plain text.
 */
export async function renderSignInLinkEmail(link: SignInLink, locale: Locale, siteUrl: string): Promise<RenderedEmail> {
  const messages = catalogues[locale];
  const t = createTranslator({ locale, messages, namespace: "email.signInLink" });
  const format = createFormatter({ locale, timeZone: TIME_ZONE });
  const shop = BRAND.name[locale];
  const minutes = Math.round((link.expiresAt.getTime() - link.requestedAt.getTime()) / 60_000);
  const element = createElement(SignInLinkEmail, {
    lang: locale,
    dir: direction(locale),
    shopName: shop,
    preview: t("preview", { shop, minutes }),
    heading: t("heading"),
    paragraphs: [t("intro", { shop, minutes })],
    link: { href: signInLinkUrl(siteUrl, link.token), label: t("button"), note: t("ignore") },
    facts: [
      [t("account"), link.to],
      [t("askedAt"), format.dateTime(link.requestedAt, { dateStyle: "medium", timeStyle: "short" })],
      [t("askedFrom"), link.ip === "unknown" ? t("unknownAddress") : link.ip],
      [t("expires"), format.dateTime(link.expiresAt, { timeStyle: "short" })],
    ],
    footer: t("footer", { shop, site: new URL(siteUrl).host }),
  });
  return { subject: t("subject", { shop }), ...(await htmlAndText(element)) };
}

/**
 * Sends the e-mail over the settings' SMTP server.
 * @throws nodemailer's error when the server refuses it or cannot be reached.
 */
export async function sendSignInLinkEmail(
  settings: Pick<EmailSettings, "smtpUrl" | "from" | "siteUrl">,
  link: SignInLink,
  locale: Locale,
): Promise<void> {
  const message = await renderSignInLinkEmail(link, locale, settings.siteUrl);
  const transport = createMailTransport(settings);
  try {
    await transport.sendMail({ from: settings.from, to: link.to, ...message });
  } finally {
    transport.close();
  }
}

/**
 * Sends the e-mail after the response has been sent (Next.js's `after()`), so that asking for a link takes as long
 * whether or not an account has the e-mail, and logs how it went (never the address or the link). Does nothing when
 * e-mail is off (the link's page says so before anyone asks).
 */
export function sendSignInLinkAfterResponse(link: SignInLink, locale: Locale): void {
  const settings = emailSettings();
  if (!settings) return;
  after(async () => {
    try {
      await sendSignInLinkEmail(settings, link, locale);
      logger.info({ event: "admin_sign_in_link_sent" });
    } catch (error) {
      const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
      logger.error({ event: "admin_sign_in_link_not_sent", code, responseCode });
    }
  });
}
