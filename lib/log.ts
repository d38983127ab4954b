import "server-only";
import pino from "pino";

/**
 * The server's structured logger (JSON lines on stdout), the shop's only way to log: `{ event: "…", …fields }`.
 * Payment secrets, access tokens and customer data must never be passed to it; the redaction list is a second line
 * of defence, not the first. One per process, kept on the process rather than in this module: Next.js bundles this
 * module into the instrumentation, the proxy and the pages separately, and each would open a logger of its own.
 */
export const logger: pino.Logger = ((globalThis as typeof globalThis & { [key: symbol]: pino.Logger | undefined })[
  Symbol.for("shop.logger")
] ??= pino({
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
      "password",
      "*.password",
    ],
    censor: "[redacted]",
  },
}));
