import "server-only";
import pino from "pino";

/**
 * The server's structured logger (JSON lines on stdout). Payment secrets, access tokens and customer data must never
 * be passed to it; the redaction list is a second line of defence, not the first.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: undefined,
  redact: {
    paths: [
      "secret_id",
      "client_secret",
      "access_token",
      "authorization",
      "headers.authorization",
      "*.secret_id",
      "*.access_token",
      "*.authorization",
      "full_name",
      "email",
      "phone",
      "*.full_name",
      "*.email",
      "*.phone",
    ],
    censor: "[redacted]",
  },
});
