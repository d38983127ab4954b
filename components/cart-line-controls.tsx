"use client";

import { useActionState } from "react";
import { removeFromCartAction, updateQuantityAction } from "@/app/(shop)/cart/actions";
import { QuantityInput } from "./quantity-input";
import { SubmitButton } from "./submit-button";

export interface CartLineLabels {
  quantityOf: string;
  update: string;
  updateOf: string;
  updating: string;
  remove: string;
  removing: string;
}

/** Change-quantity and remove controls of one cart line. */
export function CartLineControls({
  productId,
  name,
  quantity,
  labels,
}: {
  productId: number;
  name: string;
  quantity: number;
  labels: CartLineLabels;
}) {
  const [state, update] = useActionState(updateQuantityAction, null);
  const inputId = `quantity-${productId}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form action={update} className="flex items-center gap-2">
        <input type="hidden" name="productId" value={productId} />
        <label htmlFor={inputId} className="sr-only">
          {labels.quantityOf}
        </label>
        <QuantityInput
          key={quantity}
          id={inputId}
          defaultValue={quantity}
          className="w-16 rounded-lg border border-stone-300 px-2 py-1"
        />
        <SubmitButton variant="secondary" pendingLabel={labels.updating}>
          {labels.update}
          <span className="sr-only"> {labels.updateOf}</span>
        </SubmitButton>
      </form>
      <CartLineRemove productId={productId} label={labels.remove} pendingLabel={labels.removing} name={name} />
      <p aria-live="polite" className="w-full text-sm text-red-700">
        {state && !state.ok ? state.message : null}
      </p>
    </div>
  );
}

/** "Remove" for one cart line (also for a line whose product left the shop). */
export function CartLineRemove({
  productId,
  label,
  pendingLabel,
  name,
}: {
  productId: number;
  label: string;
  pendingLabel: string;
  name?: string;
}) {
  return (
    <form action={removeFromCartAction}>
      <input type="hidden" name="productId" value={productId} />
      <SubmitButton variant="link" pendingLabel={pendingLabel}>
        {label}
        {name && <span className="sr-only"> {name}</span>}
      </SubmitButton>
    </form>
  );
}
