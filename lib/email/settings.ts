import "server-only";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { isLoopbackHost, type EmailSettings } from "../env";

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
