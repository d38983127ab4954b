/**
 * Static configuration of the emulator: environments, merchants, gateways and limits.
 *
 * Everything a merchant might want to change (credentials, gateway aliases) lives here, in one place.
 */

/** The two environments of the real service. Credentials are tied to one of them. */
export type Mode = "sandbox" | "production";

export const MODES: readonly Mode[] = ["sandbox", "production"];

/** API base path per environment (same host). */
export const API_BASE: Record<Mode, string> = {
  sandbox: "/pay/sandbox/api/v1",
  production: "/pay/api/v1",
};

/** Hosted payment page base path per environment; the payment token follows it. */
export const PAGE_BASE: Record<Mode, string> = {
  sandbox: "/pay/sandbox/v1/user/payment/preview",
  production: "/pay/v1/user/payment/preview",
};

/** Lifetime of an access token, and of the payment page created with it (docs/payment-service.md, "Access token"). */
export const ACCESS_TOKEN_TTL_SECONDS = 600;

/**
 * How long a payment is kept after its page expired, so that the page answers 410 "expired" for a while
 * before the record is purged and the page answers 404 "not found".
 */
export const PAYMENT_RETENTION_SECONDS = 600;

/** Currencies accepted by `POST /payment/create`. */
export const CURRENCIES: readonly string[] = ["LYD"];

/** How long the `sandbox:slow` magic value makes create wait. */
export const SLOW_MAGIC_DELAY_MS = 15_000;

/** One client ID / secret pair. */
export interface KeyPair {
  clientId: string;
  clientSecret: string;
}

/** Where a merchant receives `payment.success` webhooks, and the secret they are signed with. */
interface WebhookEndpoint {
  /** Absolute http(s) URL. */
  url: string;
  secret: string;
}

/** A merchant account of the emulated service. */
export interface Merchant {
  id: string;
  name: string;
  /** Whether `payment_gateway: "prepaid-card"` is allowed (docs/payment-service.md, "Creating a payment"). */
  prepaidEnabled: boolean;
  keys: Record<Mode, KeyPair>;
  /** No webhooks are sent when null. */
  webhook: WebhookEndpoint | null;
}

/** A payment gateway offered on the hosted page. */
export interface Gateway {
  /** The value of `payment_gateway` in `POST /payment/create`. */
  alias: string;
  /** Display name per page language. */
  name: { en: string; ar: string };
}

/** The alias the service documents exactly (docs/payment-service.md, "Payment gateway aliases"). */
export const PREPAID_ALIAS = "prepaid-card";

/**
 * The gateways of the hosted page. The seven brand aliases of the real service are not public: these strings are
 * placeholders built from the display names. Confirm the real aliases in the merchant dashboard.
 */
export const GATEWAYS: readonly Gateway[] = [
  { alias: "moamalat", name: { en: "Bank cards — MOAMALAT", ar: "البطاقات المصرفية — MOAMALAT" } },
  { alias: "edfali", name: { en: "Edfali", ar: "Edfali" } },
  { alias: "sadad", name: { en: "Sadad", ar: "Sadad" } },
  { alias: "mobicash", name: { en: "Mobicash", ar: "Mobicash" } },
  { alias: "yaser-pay", name: { en: "Yaser Pay", ar: "Yaser Pay" } },
  { alias: "sahara-pay", name: { en: "Sahara Pay", ar: "Sahara Pay" } },
  { alias: "masrafi-pay", name: { en: "Masrafi Pay", ar: "Masrafi Pay" } },
  { alias: PREPAID_ALIAS, name: { en: "Prepaid card", ar: "بطاقة مسبقة الدفع" } },
];

/** The gateways a merchant may offer: all of them, minus prepaid card unless it is enabled. */
export function gatewaysFor(merchant: Merchant): Gateway[] {
  return GATEWAYS.filter((gateway) => gateway.alias !== PREPAID_ALIAS || merchant.prepaidEnabled);
}

/** Overrides of the default merchants' settings (environment variables, see env.ts). */
export interface MerchantOverrides {
  clientId?: string;
  clientSecret?: string;
  prepaidClientId?: string;
  prepaidClientSecret?: string;
  /** The webhook endpoint of both merchants. */
  webhook?: WebhookEndpoint;
}

/** The two merchants available out of the box, with sandbox and production keys. */
export function defaultMerchants(overrides: MerchantOverrides = {}): Merchant[] {
  return [
    {
      id: "demo",
      name: "Demo Shop",
      prepaidEnabled: false,
      keys: {
        sandbox: {
          clientId: overrides.clientId ?? "sandbox-demo-client-id",
          clientSecret: overrides.clientSecret ?? "sandbox-demo-client-secret",
        },
        production: { clientId: "live-demo-client-id", clientSecret: "live-demo-client-secret" },
      },
      webhook: overrides.webhook ?? null,
    },
    {
      id: "prepaid",
      name: "Prepaid Demo Shop",
      prepaidEnabled: true,
      keys: {
        sandbox: {
          clientId: overrides.prepaidClientId ?? "sandbox-prepaid-client-id",
          clientSecret: overrides.prepaidClientSecret ?? "sandbox-prepaid-client-secret",
        },
        production: { clientId: "live-prepaid-client-id", clientSecret: "live-prepaid-client-secret" },
      },
      webhook: overrides.webhook ?? null,
    },
  ];
}
