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
  slug,
  name,
  quantity,
  labels,
}: {
  slug: string;
  name: string;
  quantity: number;
  labels: CartLineLabels;
}) {
  const [state, update] = useActionState(updateQuantityAction, null);
  const inputId = `quantity-${slug}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form action={update} className="flex items-center gap-2">
        <input type="hidden" name="slug" value={slug} />
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
      <form action={removeFromCartAction}>
        <input type="hidden" name="slug" value={slug} />
        <SubmitButton variant="link" pendingLabel={labels.removing}>
          {labels.remove}
          <span className="sr-only"> {name}</span>
        </SubmitButton>
      </form>
      <p aria-live="polite" className="w-full text-sm text-red-700">
        {state && !state.ok ? state.message : null}
      </p>
    </div>
  );
}
