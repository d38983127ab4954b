import { MAX_QUANTITY } from "@/lib/cart-limits";

/** The quantity field of a cart form: whole numbers 1…20, a numeric keyboard on phones. The server checks again. */
export function QuantityInput({
  id,
  defaultValue,
  className,
}: {
  id: string;
  defaultValue: number;
  className: string;
}) {
  return (
    <input
      id={id}
      name="quantity"
      type="number"
      inputMode="numeric"
      min={1}
      max={MAX_QUANTITY}
      defaultValue={defaultValue}
      required
      className={className}
    />
  );
}
