import "server-only";
import { getIronSession, type IronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import { cartSchema, newCart, type Cart } from "./cart";
import { getEnv } from "./env";
import { logger } from "./log";
import { ORDER_ID } from "./ids";

/**
 * The shopper's session: an encrypted, signed cookie (iron-session) holding the cart and the id of the current
 * order. The orders themselves live in the database; the session id is what binds them to this browser.
 */
export interface SessionData {
  /** Random id of this browser session: its orders carry it, and only it can see or settle them. */
  id: string;
  cart: Cart;
  /** The order of the last checkout, for the checkout page's "payment in progress" notice. */
  orderId?: string;
  /** Find my order's request this browser asked a code for (lib/orders/lookup.ts): only this browser can use it. */
  lookupId?: number;
}

const SESSION_COOKIE = "shop_session";

/**
 * Cookie settings. `SameSite=Lax`, never `Strict`: the customer comes back from the payment service's site, and a
 * Strict cookie would not be sent on that navigation, losing the order.
 */
function sessionOptions(): SessionOptions {
  return sealedCookie(SESSION_COOKIE, getEnv().SESSION_SECRET, 60 * 60 * 24 * 7, { sameSite: "lax", path: "/" });
}

/**
 * The settings of a cookie sealed by iron-session, as both of the shop's cookies (this one and the back office's,
 * lib/admin/auth.ts) have them: named `name`, sealed with `password`, kept `ttl` seconds, HttpOnly, and `Secure`
 * whenever the shop is served over https (always, in production; plain http is only accepted for loopback SITE_URLs).
 */
export function sealedCookie(
  name: string,
  password: string,
  ttl: number,
  { sameSite, path }: { sameSite: "lax" | "strict"; path: string },
): SessionOptions {
  return {
    cookieName: name,
    password,
    ttl,
    cookieOptions: { httpOnly: true, sameSite, path, secure: getEnv().SITE_URL.startsWith("https:") },
  };
}

/**
 * The current request's session, with `cart` always present. A cookie that cannot be read (tampered, truncated,
 * sealed with another password, or of an older shape) gives a fresh empty session and a log line, never an error.
 * Call `save()` after changing it; only server actions and route handlers can (Server Components cannot set cookies).
 */
export async function getSession(): Promise<IronSession<SessionData>> {
  const store = await cookies();
  const raw = store.get(SESSION_COOKIE)?.value;
  let session: IronSession<Partial<SessionData>>;
  try {
    session = await getIronSession<Partial<SessionData>>(store, sessionOptions());
  } catch (error) {
    logger.warn(
      { event: "session_unreadable", reason: error instanceof Error ? error.message : "unknown" },
      "starting a fresh session",
    );
    const withoutCookie = { get: () => undefined, set: store.set.bind(store) };
    session = await getIronSession<Partial<SessionData>>(withoutCookie, sessionOptions());
  }

  if (raw && Object.keys(session).length === 0) {
    logger.warn({ event: "session_unreadable", reason: "seal rejected" }, "starting a fresh session");
  }
  const cart = cartSchema.safeParse(session.cart);
  if (session.cart !== undefined && !cart.success)
    logger.warn({ event: "session_cart_dropped" }, "cart in cookie had an unexpected shape");
  session.cart = cart.success ? cart.data : newCart();
  if (typeof session.id !== "string" || !/^[\w-]{8,64}$/.test(session.id)) session.id = crypto.randomUUID();
  if (session.orderId !== undefined && (typeof session.orderId !== "string" || !ORDER_ID.test(session.orderId)))
    session.orderId = undefined;
  if (session.lookupId !== undefined && !Number.isSafeInteger(session.lookupId)) session.lookupId = undefined;
  // Cookies from before the order store held the whole order; it now lives in the database.
  delete (session as { order?: unknown }).order;
  return session as IronSession<SessionData>;
}
