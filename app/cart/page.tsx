import type { Metadata } from "next";
import Image from "next/image";
import Link from "next/link";
import { CartLineControls } from "@/components/cart-line-controls";
import { priceCart } from "@/lib/cart";
import { formatMoney } from "@/lib/money";
import { getSession } from "@/lib/session";

export const metadata: Metadata = { title: "Your cart" };

export default async function CartPage() {
  const { cart } = await getSession();
  const priced = priceCart(cart);

  if (priced.lines.length === 0) {
    return (
      <section className="mx-auto max-w-md py-12 text-center">
        <h1 className="text-2xl font-semibold">Your cart is empty</h1>
        <p className="mt-2 text-stone-600">Find something you like and add it to your cart.</p>
        <Link href="/" className="mt-6 inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800">
          Browse products
        </Link>
      </section>
    );
  }

  return (
    <section>
      <h1 className="text-2xl font-semibold tracking-tight">Your cart</h1>
      <ul className="mt-6 divide-y divide-sand-200 rounded-xl border border-sand-200 bg-white">
        {priced.lines.map(({ product, quantity, totalMinor }) => (
          <li key={product.slug} className="flex gap-4 p-4" data-testid="cart-line">
            <Image src={product.image} alt="" width={80} height={80} className="size-20 rounded-lg bg-sand-100" />
            <div className="flex flex-1 flex-col gap-2">
              <div className="flex justify-between gap-4">
                <Link href={`/products/${product.slug}`} className="font-medium hover:underline">
                  {product.name}
                </Link>
                <span className="whitespace-nowrap">{formatMoney(totalMinor)}</span>
              </div>
              <p className="text-sm text-stone-600">{formatMoney(product.priceMinor)} each</p>
              <CartLineControls slug={product.slug} name={product.name} quantity={quantity} />
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-col items-end gap-3">
        <p className="text-lg">
          Total <strong data-testid="cart-total">{formatMoney(priced.totalMinor)}</strong>
        </p>
        <Link href="/checkout" className="rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800">
          Go to checkout
        </Link>
      </div>
    </section>
  );
}
