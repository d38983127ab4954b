/**
 * Ways an API call can go wrong on purpose: queued faults (control API) and magic values (create body).
 * Both describe a `Failure`; `failureResponse` turns it into what the client sees.
 */
import type { Context } from "hono";
import { SLOW_MAGIC_DELAY_MS } from "./config";
import { errorResponse } from "./envelope";
import type { ApiMessages } from "./i18n";

/** What happens instead of (or before) the normal answer. */
export type Failure =
  /** An error envelope with this status (429 also sends `Retry-After`). */
  | { kind: "status"; status: number }
  /** An HTML error page, as the real platform's framework answers when it fails outside the API code. */
  | { kind: "html"; status: number }
  /** A `200 application/json` response whose body is cut off mid-way. */
  | { kind: "malformed"; status: number }
  /** The connection is closed without any answer. */
  | { kind: "drop" }
  /** Wait, then answer normally. */
  | { kind: "delay"; delayMs: number };

/** Seconds in the `Retry-After` header of a provoked 429. */
export const RETRY_AFTER_SECONDS = 60;

/** Thrown when a `drop` failure closes the connection. In-process (`app.request`) the promise rejects with it. */
export class ConnectionDroppedError extends Error {
  constructor() {
    super("Connection dropped by the emulator (fault or magic value 'drop').");
    this.name = "ConnectionDroppedError";
  }
}

/** Magic substrings of `full_name` or `custom` and what they do to `POST /payment/create`. */
export const MAGIC_VALUES: Readonly<Record<string, Failure>> = {
  "sandbox:error-500": { kind: "status", status: 500 },
  "sandbox:error-502": { kind: "status", status: 502 },
  "sandbox:error-503": { kind: "status", status: 503 },
  "sandbox:error-401": { kind: "status", status: 401 },
  "sandbox:error-403": { kind: "status", status: 403 },
  "sandbox:rate-limit": { kind: "status", status: 429 },
  "sandbox:reject": { kind: "status", status: 400 },
  "sandbox:conflict": { kind: "status", status: 409 },
  "sandbox:html": { kind: "html", status: 500 },
  "sandbox:malformed": { kind: "malformed", status: 200 },
  "sandbox:drop": { kind: "drop" },
  "sandbox:slow": { kind: "delay", delayMs: SLOW_MAGIC_DELAY_MS },
};

/**
 * The magic value found in `full_name` or `custom` (case-insensitive), if any.
 * `slowMs` replaces the delay of `sandbox:slow` (tests use a short one).
 */
export function findMagicValue(body: Record<string, unknown>, slowMs = SLOW_MAGIC_DELAY_MS): Failure | undefined {
  for (const field of ["full_name", "custom"]) {
    const value = body[field];
    if (typeof value !== "string") continue;
    const lower = value.toLowerCase();
    const magic = Object.keys(MAGIC_VALUES).find((key) => lower.includes(key));
    const failure = magic ? MAGIC_VALUES[magic] : undefined;
    if (failure) return failure.kind === "delay" ? { kind: "delay", delayMs: slowMs } : failure;
  }
  return undefined;
}

/** The error envelope message for a provoked status. */
function statusMessage(status: number, m: ApiMessages): string {
  switch (status) {
    case 400:
      return m.sandboxRejected;
    case 401:
      return m.tokenExpired;
    case 403:
      return m.invalidToken;
    case 404:
      return m.notFound;
    case 409:
      return m.conflict;
    case 429:
      return m.rateLimited;
    case 502:
      return m.badGateway;
    case 503:
    case 504:
      return m.serviceUnavailable;
    default:
      return m.serverError;
  }
}

const STATUS_TITLES: Record<number, string> = {
  429: "Too Many Requests",
  500: "Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** An HTML error page in the style of the framework the real service runs on. */
export function htmlErrorPage(status: number): string {
  const title = STATUS_TITLES[status] ?? "Error";
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family: sans-serif; display: flex; align-items: center; justify-content: center; min-height: 100vh; margin: 0; color: #6b7280">
<div>${status} | ${title}</div>
</body>
</html>`;
}

/**
 * The response for a failure (`delay` is handled by the caller).
 * `drop` destroys the socket when running under @hono/node-server, then throws `ConnectionDroppedError`.
 */
export function failureResponse(c: Context, failure: Exclude<Failure, { kind: "delay" }>, m: ApiMessages): Response {
  switch (failure.kind) {
    case "status": {
      const headers: Record<string, string> =
        failure.status === 429 ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {};
      return errorResponse(failure.status, [statusMessage(failure.status, m)], headers);
    }
    case "html":
      return new Response(htmlErrorPage(failure.status), {
        status: failure.status,
        headers: {
          "Content-Type": "text/html; charset=UTF-8",
          ...(failure.status === 429 ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {}),
        },
      });
    case "malformed":
      return new Response('{"message":{"code":200,"success":["SUCCESS"]},"data":{"tok', {
        status: failure.status,
        headers: { "Content-Type": "application/json" },
      });
    case "drop": {
      const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
      socket?.destroy();
      throw new ConnectionDroppedError();
    }
  }
}
