import "server-only";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { getEnv, isLoopbackHost, singleMailbox, type Env } from "../env";
import type { Locale } from "../i18n/config";

/**
 * How the shop sends e-mail: the SMTP server of `SMTP_URL` (a transactional provider's relay in production,
 * `npm run dev`'s mail catcher in development), the sender `MAIL_FROM`, and whom the merchant's notices go to, in
 * which language. Holds the SMTP password: server-only.
 */
export interface EmailSettings {
  /** `smtp://user:password@host:587` (STARTTLS) or `smtps://…:465` (TLS from the first byte). */
  smtpUrl: string;
  /** `Medina Market <orders@shop.example.ly>` */
  from: string;
  /** Where the merchant's notices go; none are queued without it. */
  merchantEmail: string | undefined;
  merchantLocale: Locale;
  /** The shop's public origin, for the links in the e-mails. */
  siteUrl: string;
}

/**
 * The e-mail settings from the environment, or `null` when e-mail is off (`SMTP_URL` unset): nothing is queued or
 * sent then, and the server said so once when it started.
 * @throws EnvError when the environment is unusable.
 */
export function emailSettings(env: Env = getEnv()): EmailSettings | null {
  if (!env.SMTP_URL || !env.MAIL_FROM) return null;
  return {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    merchantEmail: env.MERCHANT_EMAIL,
    merchantLocale: env.MERCHANT_LOCALE,
    siteUrl: env.SITE_URL,
  };
}

/**
 * How long the shop waits at each step of an SMTP conversation before the attempt counts as failed: as long as the
 * standard lets a server take (RFC 5321, "Timeouts": five minutes for the greeting, ten for the answer to the end of
 * a message). A relay that answers late has usually taken the message: a sender that gave up after 10 s sent the same
 * receipt three times to a relay that acknowledged after 25 s. Connecting is not an answer a relay thinks about: a
 * minute. lib/email/sender.ts holds each e-mail longer than all of this (its lease).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 60_000, greetingTimeout: 5 * 60_000, socketTimeout: 10 * 60_000 };

/**
 * nodemailer's options for `SMTP_URL`. Over `smtp://` to any host but this machine, TLS is required (STARTTLS), so the
 * password and the customers' details never cross the network in clear text, whatever the server offers.
 */
function smtpOptions(smtpUrl: string): SMTPTransport.Options {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && !isLoopbackHost(url.hostname),
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    ...SMTP_TIMEOUTS,
  };
}

/** A nodemailer transport for the settings' SMTP server (one connection per message; close it when done). */
export function createMailTransport(settings: Pick<EmailSettings, "smtpUrl">) {
  return nodemailer.createTransport(smtpOptions(settings.smtpUrl));
}

/** The domain of the sender's address: the right-hand side of every Message-ID the shop makes. */
export function senderDomain(settings: Pick<EmailSettings, "from">): string {
  return singleMailbox(settings.from)?.address.split("@").pop() ?? "localhost";
}
