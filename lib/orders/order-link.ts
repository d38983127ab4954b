import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/client";
import { getEnv } from "../env";
import { ORDER_ID } from "../ids";
import { findLinkedOrder, type LinkedOrder } from "./store";

/**
 * The signed link of an order: `/orders/<id>?key=<signature>`, which opens that order's page in any browser, no
 * account or session needed (the receipt carries it). The signature is the HMAC-SHA256 of the order id under
 * ORDER_LINK_SECRET, base64url (43 characters); the link carries the order id and that signature only, nothing about
 * the customer. Whoever holds the link sees what the order's page shows a link (status, lines, delivery city and
 * step), never the customer's name, phone, e-mail or address: a link may be forwarded.
 *
 * Changing ORDER_LINK_SECRET invalidates every link sent before: they show "not found" from then on.
 */

/** What the HMAC signs: a label, so that a key used for something else one day never signs the same message. */
const message = (orderId: string) => `order-link:v1:${orderId}`;
/** A signature as the link carries it: 32 bytes in base64url without padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The signature of an order's link.
 * @param orderId an order id (`ord_…`). @param secret ORDER_LINK_SECRET.
 * @returns 43 base64url characters.
 */
export function orderLinkKey(orderId: string, secret: string): string {
  return createHmac("sha256", secret).update(message(orderId)).digest("base64url");
}

/**
 * Whether `key` is the signature of `orderId`'s link under `secret`. Compared as the characters the link carries, in
 * constant time: a changed character (even one that decodes to the same bytes), a truncated or padded signature,
 * another order's, another secret's, or anything that is not a signature is `false`, never an error.
 */
export function verifyOrderLinkKey(orderId: string, key: unknown, secret: string): boolean {
  if (typeof key !== "string" || !SIGNATURE.test(key) || !ORDER_ID.test(orderId)) return false;
  return timingSafeEqual(Buffer.from(key), Buffer.from(orderLinkKey(orderId, secret)));
}

/**
 * The absolute link of an order's page, for the receipt.
 * @param siteUrl the shop's public origin (SITE_URL, no trailing slash). @param orderId an order id. @param secret
 *   ORDER_LINK_SECRET.
 */
export function orderLinkUrl(siteUrl: string, orderId: string, secret: string): string {
  return `${siteUrl}/orders/${orderId}?key=${orderLinkKey(orderId, secret)}`;
}

/**
 * The order a signed link opens: its signature is checked first (a wrong one costs no query), then the order is read
 * with only what such a page may show ({@link LinkedOrder}).
 * @param key the link's `key` as the request carried it (anything: a missing, repeated or malformed one is "no").
 * @param secret ORDER_LINK_SECRET (default: this process's).
 * @returns the order, or `undefined` for a link that does not verify or an order that is not shown ("not found").
 */
export async function findOrderByLink(
  db: Db,
  orderId: string,
  key: unknown,
  secret: string = getEnv().ORDER_LINK_SECRET,
): Promise<LinkedOrder | undefined> {
  if (!verifyOrderLinkKey(orderId, key, secret)) return undefined;
  return findLinkedOrder(db, orderId);
}
