"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { redirect } from "next/navigation";
import {
  addToCart,
  CART_LIMITS,
  newCart,
  productIdSchema,
  quantitySchema,
  removeFromCart,
  setQuantity,
  type Cart,
  type CartChange,
} from "@/lib/cart";
import { productsForCheckout, type Product } from "@/lib/catalog/products";
import { getDb } from "@/lib/db/client";
import { findCustomerOrder } from "@/lib/orders/store";
import { translateProblem, type ProblemKey } from "@/lib/problems";
import { getSession } from "@/lib/session";

/** State of a cart form after submission: a message for the customer, in their language. */
export type CartFormState = { ok: boolean; message: string } | null;

const lineSchema = z.object({ productId: productIdSchema, quantity: quantitySchema });

/**
 * Validates `productId` and `quantity`, reads the product as the catalogue has it now (a hidden or unknown one is
 * "does not exist"), applies `change` to the session's cart and saves it; never throws.
 */
async function changeCart(
  form: FormData,
  change: (cart: Cart, product: Product, quantity: number) => CartChange,
  done: string,
): Promise<CartFormState> {
  const parsed = lineSchema.safeParse({ productId: form.get("productId"), quantity: form.get("quantity") ?? "1" });
  if (!parsed.success) {
    const key = (parsed.error.issues[0]?.message ?? "productUnknown") as ProblemKey;
    return { ok: false, message: await translateProblem({ key, values: CART_LIMITS }) };
  }
  const product = (await productsForCheckout(getDb(), [parsed.data.productId])).get(parsed.data.productId);
  if (!product?.visible) return { ok: false, message: await translateProblem({ key: "productUnknown" }) };
  const session = await getSession();
  const result = change(session.cart, product, parsed.data.quantity);
  if (!result.ok) return { ok: false, message: await translateProblem(result.error) };
  session.cart = result.cart;
  await session.save();
  revalidatePath("/", "layout");
  return { ok: true, message: done };
}

/** Adds a product to the cart. Form fields: `productId`, `quantity` (1–20). */
export async function addToCartAction(_state: CartFormState, form: FormData): Promise<CartFormState> {
  return changeCart(form, addToCart, (await getTranslations("product"))("added"));
}

/** Sets a cart line's quantity. Form fields: `productId`, `quantity` (1–20). */
export async function updateQuantityAction(_state: CartFormState, form: FormData): Promise<CartFormState> {
  return changeCart(form, setQuantity, (await getTranslations("cart"))("updated"));
}

/** Removes a line from the cart. Form field: `productId`. */
export async function removeFromCartAction(form: FormData): Promise<void> {
  const productId = productIdSchema.safeParse(form.get("productId"));
  if (!productId.success) return;
  const session = await getSession();
  session.cart = removeFromCart(session.cart, productId.data);
  await session.save();
  revalidatePath("/", "layout");
}

/**
 * "Buy these again" on a paid order's page: the cart becomes a new cart (lib/cart.ts) holding that order's lines at
 * today's prices, so paying for them again is a new checkout, made on purpose. Lines whose product is hidden, gone or
 * sold out are left out (the cart page shows what is there). Form field: `id`, an order of this session; any other id
 * changes nothing.
 */
export async function buyAgainAction(form: FormData): Promise<void> {
  const session = await getSession();
  const order = await findCustomerOrder(getDb(), String(form.get("id") ?? ""), session.id);
  if (order) {
    const ids = order.lines.flatMap((line) => (line.productId ? [line.productId] : []));
    const found = await productsForCheckout(getDb(), ids);
    let cart = newCart();
    for (const line of order.lines) {
      const product = line.productId ? found.get(line.productId) : undefined;
      const change = product?.visible ? addToCart(cart, product, line.quantity) : undefined;
      if (change?.ok) cart = change.cart;
    }
    session.cart = cart;
    await session.save();
    revalidatePath("/", "layout");
  }
  redirect("/cart");
}
