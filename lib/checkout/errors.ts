import type { Product } from "../catalog/products";
import type { PromoHoldRefusal } from "../promo-codes/uses";
import type { Claim, ShortLine } from "./claim";

/**
 * Why a checkout placed no order (lib/checkout/place-order.ts): each error is thrown before anything is asked of the
 * payment service, and the cart is kept; ./problems.ts says each one to the customer.
 */

/** The database could not be read or written: nothing was charged, and the customer can try again. */
export class OrderStoreError extends Error {
  constructor(cause: unknown) {
    super("the order store could not be reached or refused the write", { cause });
    this.name = "OrderStoreError";
  }
}

/** The stock cannot cover the cart now: nothing was held, nothing asked of the service; the cart is kept. */
export class OutOfStockError extends Error {
  constructor(readonly lines: ShortLine[]) {
    super("the stock cannot cover the cart");
    this.name = "OutOfStockError";
  }
}

/** The client address started its budget of new payments: nothing was asked of the service. */
export class PaymentBudgetError extends Error {
  constructor(readonly retryAfterMinutes: number) {
    super("this client address has started as many new payments as it may for now");
    this.name = "PaymentBudgetError";
  }
}

/** Lines with more units than their product's most per order: nothing was held, nothing asked of the service. */
export class OverMostError extends Error {
  constructor(readonly lines: { name: Product["name"]; most: number }[]) {
    super("the cart has more of a product than one order may have");
    this.name = "OverMostError";
  }
}

/**
 * The client address's open checkouts already hold `held` units of counted stock, and this cart would take them past
 * `max`: nothing was held, nothing asked of the service; the earliest of those holds ends in `retryAfterMinutes`.
 */
export class HeldTooMuchError extends Error {
  constructor(
    readonly held: number,
    readonly max: number,
    readonly retryAfterMinutes: number,
  ) {
    super("this client address's open checkouts hold as many units as they may");
    this.name = "HeldTooMuchError";
  }
}

/**
 * A cash order this shop will not take from this customer now: their phone is `blocked` from paying cash, or their
 * `phone` or client `address` already has `max` open cash orders waiting for the merchant's call (the budget against
 * fake orders, lib/checkout/claim.ts). Nothing was stored; paying online stays open to them.
 */
export class CashRefusedError extends Error {
  constructor(
    readonly why: "blocked" | "phone" | "address",
    readonly max: number,
  ) {
    super(
      why === "blocked"
        ? "this phone number may not pay in cash"
        : `this ${why === "phone" ? "phone number" : "client address"} has as many open cash orders as it may`,
    );
    this.name = "CashRefusedError";
  }
}

/**
 * The checkout's promo code has no uses left when the claim counted them under the code's lock: `used_up` in all, or
 * `customer_used_up` by this customer (their phone or e-mail). Nothing was stored or asked of the service; the
 * customer may check out without the code.
 */
export class PromoCodeError extends Error {
  constructor(readonly why: PromoHoldRefusal) {
    super(why === "used_up" ? "the promo code has no uses left" : "this customer has used the promo code up");
    this.name = "PromoCodeError";
  }
}

/**
 * Throws a claim that placed nothing (lib/checkout/claim.ts names each refusal) as its error; a claim that goes on
 * (`claimed`, `existing`) passes.
 * @throws OutOfStockError, PaymentBudgetError, OverMostError, HeldTooMuchError, CashRefusedError, PromoCodeError.
 */
export function throwIfRefused(claim: Claim): asserts claim is Extract<Claim, { kind: "claimed" | "existing" }> {
  switch (claim.kind) {
    case "out_of_stock":
      throw new OutOfStockError(claim.lines);
    case "over_budget":
      throw new PaymentBudgetError(claim.retryAfterMinutes);
    case "over_most":
      throw new OverMostError(claim.lines);
    case "too_much_held":
      throw new HeldTooMuchError(claim.held, claim.max, claim.retryAfterMinutes);
    case "cash_refused":
      throw new CashRefusedError(claim.why, claim.max);
    case "promo_refused":
      throw new PromoCodeError(claim.why);
  }
}
