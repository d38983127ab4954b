"use client";

import { useActionState } from "react";
import { addToCartAction } from "@/app/(shop)/cart/actions";
import { QuantityInput } from "./quantity-input";
import { PageLink } from "./page-link";
import { SubmitButton } from "./submit-button";

/** Quantity input and "Add to cart" button for one product; reports the result in a live region. */
export function AddToCartForm({
  productId,
  labels,
}: {
  productId: number;
  labels: { quantity: string; add: string; adding: string; viewCart: string };
}) {
  const [state, action] = useActionState(addToCartAction, null);
  return (
    <form action={action} className="mt-6 flex flex-wrap items-end gap-3">
      <input type="hidden" name="productId" value={productId} />
      <div>
        <label htmlFor="quantity" className="block text-sm font-medium">
          {labels.quantity}
        </label>
        <QuantityInput
          id="quantity"
          defaultValue={1}
          className="mt-1 w-20 rounded-lg border border-stone-300 px-3 py-2"
        />
      </div>
      <SubmitButton pendingLabel={labels.adding}>{labels.add}</SubmitButton>
      <p aria-live="polite" className="w-full text-sm">
        {state && (
          <span className={state.ok ? "text-brand-700" : "text-red-700"}>
            {state.message}{" "}
            {state.ok && (
              <PageLink href="/cart" className="font-medium underline">
                {labels.viewCart}
              </PageLink>
            )}
          </span>
        )}
      </p>
    </form>
  );
}
