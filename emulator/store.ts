/**
 * In-memory state: issued access tokens and the payments created with them.
 * Everything expires on the emulator clock and is purged, so memory stays flat however long it runs.
 */
import { PAYMENT_RETENTION_SECONDS, type Mode } from "./config";
import type { Lang, PaymentStatus } from "./i18n";
import type { CreateRequest } from "./validation";

/** An issued access token. At most one payment belongs to it (docs/payment-service.md, "Access token"). */
export interface AccessTokenRecord {
  jti: string;
  merchantId: string;
  mode: Mode;
  issuedAt: number;
  expiresAt: number;
  /** The payment initialised with this token, once create succeeded. */
  paymentToken: string | null;
}

/** A payment transaction. Times are emulator-clock milliseconds. */
export interface Payment extends CreateRequest {
  token: string;
  status: PaymentStatus;
  merchantId: string;
  mode: Mode;
  lang: Lang;
  payment_url: string;
  accessTokenIssuedAt: number;
  createdAt: number;
  /** The page stops working at this time: 600 s after the access token was issued. */
  expiresAt: number;
  completedAt: number | null;
  /** The gateway the customer finished on (may differ from `payment_gateway` when none was sent). */
  gatewayUsed: string | null;
  /** Canonical JSON of the create body, to tell an identical repeat from a changed body. */
  fingerprint: string;
}

export interface PurgeResult {
  tokens: number;
  payments: number;
}

export interface Store {
  readonly tokens: Map<string, AccessTokenRecord>;
  readonly payments: Map<string, Payment>;
  /** A payment by token, with `pending` turned into `expired` once its page expired. */
  payment(token: string, now: number): Payment | undefined;
  /** Drops expired access tokens, and payments whose page expired more than the retention time ago. */
  purge(now: number): PurgeResult;
  clear(): void;
}

const RETENTION_MS = PAYMENT_RETENTION_SECONDS * 1000;

/** Marks a pending payment whose page expired as `expired`. */
function refreshStatus(payment: Payment, now: number): Payment {
  if (payment.status === "pending" && now >= payment.expiresAt) payment.status = "expired";
  return payment;
}

export function createStore(): Store {
  const tokens = new Map<string, AccessTokenRecord>();
  const payments = new Map<string, Payment>();

  return {
    tokens,
    payments,
    payment(token, now) {
      const payment = payments.get(token);
      return payment && refreshStatus(payment, now);
    },
    purge(now) {
      const result: PurgeResult = { tokens: 0, payments: 0 };
      for (const [jti, record] of tokens) {
        if (now >= record.expiresAt) {
          tokens.delete(jti);
          result.tokens++;
        }
      }
      for (const [token, payment] of payments) {
        if (now >= payment.expiresAt + RETENTION_MS) {
          payments.delete(token);
          result.payments++;
        } else {
          refreshStatus(payment, now);
        }
      }
      return result;
    },
    clear() {
      tokens.clear();
      payments.clear();
    },
  };
}
