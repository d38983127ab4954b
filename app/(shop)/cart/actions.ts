"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { redirect } from "next/navigation";
import {
  addToCart,
  CART_LIMITS,
  newCart,
  productSlugSchema,
  quantitySchema,
  removeFromCart,
  setQuantity,
  type Cart,
  type CartChange,
} from "@/lib/cart";
import { getDb } from "@/lib/db/client";
import { findCustomerOrder } from "@/lib/orders/store";
import { translateProblem, type ProblemKey } from "@/lib/problems";
import { getSession } from "@/lib/session";

/** State of a cart form after submission: a message for the customer, in their language. */
export type CartFormState = { ok: boolean; message: string } | null;

const lineSchema = z.object({ slug: productSlugSchema, quantity: quantitySchema });

/** Validates `slug` and `quantity`, applies `change` to the session's cart and saves it; never throws. */
async function changeCart(
  form: FormData,
  change: (cart: Cart, slug: string, quantity: number) => CartChange,
  done: string,
): Promise<CartFormState> {
  const parsed = lineSchema.safeParse({ slug: form.get("slug"), quantity: form.get("quantity") ?? "1" });
  if (!parsed.success) {
    const key = (parsed.error.issues[0]?.message ?? "productUnknown") as ProblemKey;
    return { ok: false, message: await translateProblem({ key, values: CART_LIMITS }) };
  }
  const session = await getSession();
  const result = change(session.cart, parsed.data.slug, parsed.data.quantity);
  if (!result.ok) return { ok: false, message: await translateProblem(result.error) };
  session.cart = result.cart;
  await session.save();
  revalidatePath("/", "layout");
  return { ok: true, message: done };
}

/** Adds a product to the cart. Form fields: `slug`, `quantity` (1–20). */
export async function addToCartAction(_state: CartFormState, form: FormData): Promise<CartFormState> {
  return changeCart(form, addToCart, (await getTranslations("product"))("added"));
}

/** Sets a cart line's quantity. Form fields: `slug`, `quantity` (1–20). */
export async function updateQuantityAction(_state: CartFormState, form: FormData): Promise<CartFormState> {
  return changeCart(form, setQuantity, (await getTranslations("cart"))("updated"));
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

/**
 * "Buy these again" on a paid order's page: the cart becomes a new cart (lib/cart.ts) holding that order's lines, so
 * paying for them again is a new checkout, made on purpose. Lines whose product left the catalogue are left out.
 * Form field: `id`, an order of this session; any other id changes nothing.
 */
export async function buyAgainAction(form: FormData): Promise<void> {
  const session = await getSession();
  const order = await findCustomerOrder(getDb(), String(form.get("id") ?? ""), session.id);
  if (order) {
    let cart = newCart();
    for (const line of order.lines) {
      const change = addToCart(cart, line.productSlug, line.quantity);
      if (change.ok && productSlugSchema.safeParse(line.productSlug).success) cart = change.cart;
    }
    session.cart = cart;
    await session.save();
    revalidatePath("/", "layout");
  }
  redirect("/cart");
}
