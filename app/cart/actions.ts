"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { addToCart, productSlugSchema, quantitySchema, removeFromCart, setQuantity, type CartChange } from "@/lib/cart";
import { getSession } from "@/lib/session";

/** State of a cart form after submission: a message for the customer. */
export type CartFormState = { ok: boolean; message: string } | null;

const lineSchema = z.object({ slug: productSlugSchema, quantity: quantitySchema });

async function change(form: FormData, apply: (cart: Parameters<typeof addToCart>[0], slug: string, quantity: number) => CartChange, done: string) {
  const parsed = lineSchema.safeParse({ slug: form.get("slug"), quantity: form.get("quantity") ?? "1" });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? "That change could not be made." };
  const session = await getSession();
  const result = apply(session.cart, parsed.data.slug, parsed.data.quantity);
  if (!result.ok) return { ok: false, message: result.error };
  session.cart = result.cart;
  await session.save();
  revalidatePath("/", "layout");
  return { ok: true, message: done };
}

/** Adds a product to the cart. Form fields: `slug`, `quantity` (1–20). */
export async function addToCartAction(_state: CartFormState, form: FormData): Promise<CartFormState> {
  return change(form, addToCart, "Added to your cart.");
}

/** Sets a cart line's quantity. Form fields: `slug`, `quantity` (1–20). */
export async function updateQuantityAction(_state: CartFormState, form: FormData): Promise<CartFormState> {
  return change(form, setQuantity, "Quantity updated.");
}

/** Removes a line from the cart. Form field: `slug`. */
export async function removeFromCartAction(form: FormData): Promise<void> {
  const slug = form.get("slug");
  if (typeof slug !== "string") return;
  const session = await getSession();
  session.cart = removeFromCart(session.cart, slug);
  await session.save();
  revalidatePath("/", "layout");
}
