/**
 * Cart limits, in a module of their own so client components can read them without pulling the cart's zod
 * schemas into the browser bundle.
 */

/** Most units of one product per order. */
export const MAX_QUANTITY = 20;
/** Most distinct products per cart: keeps the session cookie well under 4 KB. */
export const MAX_LINES = 20;
