/**
 * Payment gateway aliases (docs/payment-service.md, "Payment gateway aliases"): the values of `payment_gateway` that
 * skip the payment page's gateway selection. The service has seven brand-named aliases plus `prepaid-card`; the
 * seven exact strings are not public, so they live in configuration (`PAYMENT_GATEWAYS`) and merchants confirm them in
 * the merchant dashboard. The defaults below match the bundled emulator.
 */

/** One gateway the customer can pick: the alias sent as `payment_gateway`, and the name shown to people. */
export interface Gateway {
  alias: string;
  name: string;
}

/** The one alias the spec gives exactly; it needs prepaid card checkout enabled on the merchant account (rule 4). */
const PREPAID_CARD_ALIAS = "prepaid-card";

/**
 * Default picker, in the order the service lists its methods (docs/payment-service.md,
 * "The payment page and its lifetime").
 */
export const DEFAULT_GATEWAYS: readonly Gateway[] = [
  { alias: "moamalat", name: "Bank card (MOAMALAT)" },
  { alias: "edfali", name: "Edfali" },
  { alias: "sadad", name: "Sadad" },
  { alias: "mobicash", name: "Mobicash" },
  { alias: "yaser-pay", name: "Yaser Pay" },
  { alias: "sahara-pay", name: "Sahara Pay" },
  { alias: "masrafi-pay", name: "Masrafi Pay" },
];

const KNOWN_NAMES = new Map<string, string>([
  ...DEFAULT_GATEWAYS.map((g) => [g.alias, g.name] as const),
  [PREPAID_CARD_ALIAS, "Prepaid card"],
]);

const ALIAS = /^[a-z0-9][a-z0-9_-]{0,49}$/;

/**
 * Parses `PAYMENT_GATEWAYS`: a comma-separated list of `alias` or `alias=Display name`, e.g.
 * `moamalat,sadad,prepaid-card=Prepaid card`. Unset or blank gives {@link DEFAULT_GATEWAYS}.
 * @returns the gateways in the given order, or an error naming the bad entry.
 */
export function parseGatewayList(
  value: string | undefined,
): { ok: true; gateways: Gateway[] } | { ok: false; error: string } {
  if (value === undefined || value.trim() === "") return { ok: true, gateways: [...DEFAULT_GATEWAYS] };
  const gateways: Gateway[] = [];
  for (const entry of value.split(",")) {
    const [rawAlias = "", ...rest] = entry.split("=");
    const alias = rawAlias.trim();
    if (!ALIAS.test(alias)) {
      return { ok: false, error: `"${entry.trim()}" is not a gateway alias (lowercase letters, digits, - and _)` };
    }
    if (gateways.some((g) => g.alias === alias)) return { ok: false, error: `"${alias}" is listed twice` };
    const name = rest.join("=").trim() || KNOWN_NAMES.get(alias) || alias;
    gateways.push({ alias, name });
  }
  return { ok: true, gateways };
}

/**
 * The gateways with their names in the shopper's language. A name the merchant gave in `PAYMENT_GATEWAYS`
 * (`alias=Name`) is shown as given; a known alias under its default name takes the catalogue's name for it
 * (messages `gateways.<alias>`), so the Arabic picker reads in Arabic; anything else keeps its name.
 * @param names the `gateways` section of the shopper's message catalogue.
 */
export function localiseGateways(gateways: readonly Gateway[], names: Readonly<Record<string, string>>): Gateway[] {
  return gateways.map(({ alias, name }) => ({
    alias,
    name: name === KNOWN_NAMES.get(alias) && names[alias] ? names[alias] : name,
  }));
}

/**
 * How to show a gateway alias that arrived from elsewhere (the service's webhook): the catalogue's name for a known
 * alias, else the alias itself.
 * @param names the `gateways` section of the reader's message catalogue.
 */
export function gatewayName(alias: string, names: Readonly<Record<string, string>>): string {
  return (KNOWN_NAMES.has(alias) && names[alias]) || alias;
}
