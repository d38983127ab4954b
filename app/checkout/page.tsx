import type { Metadata } from "next";
import Link from "next/link";
import { CheckoutForm } from "@/components/checkout-form";
import { OrderSummary } from "@/components/order-summary";
import { priceCart } from "@/lib/cart";
import { getEnv } from "@/lib/env";
import { getSession } from "@/lib/session";

export const metadata: Metadata = { title: "Checkout" };

export default async function CheckoutPage() {
  const { cart, order } = await getSession();
  const priced = priceCart(cart);
  if (priced.lines.length === 0) {
    return (
      <section className="mx-auto max-w-md py-12 text-center">
        <h1 className="text-2xl font-semibold">Your cart is empty</h1>
        <p className="mt-2 text-stone-600">Add something to your cart before checking out.</p>
        <Link href="/" className="mt-6 inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800">
          Browse products
        </Link>
      </section>
    );
  }
  const { PAYMENT_GATEWAYS } = getEnv();
  return (
    <div className="grid gap-8 md:grid-cols-[1fr_20rem]">
      <section>
        <h1 className="text-2xl font-semibold tracking-tight">Checkout</h1>
        <p className="mt-1 text-stone-600">You will pay on the payment service&apos;s secure page. All fields are optional.</p>
        {order?.status === "pending" && (
          <p role="status" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="pending-notice">
            You have a payment in progress for this shop. Continuing with the same cart and details picks it up where you
            left it; if you changed anything, a new payment is started instead and the old one is left unpaid.
          </p>
        )}
        <CheckoutForm gateways={PAYMENT_GATEWAYS} />
      </section>
      <aside aria-labelledby="summary-heading" className="h-fit rounded-xl border border-sand-200 bg-white p-4 md:order-last">
        <h2 id="summary-heading" className="font-semibold">
          Order summary
        </h2>
        <OrderSummary lines={priced.lines.map((l) => ({ name: l.product.name, quantity: l.quantity, totalMinor: l.totalMinor }))} totalMinor={priced.totalMinor} />
        <Link href="/cart" className="mt-3 inline-block text-sm text-brand-700 underline-offset-2 hover:underline">
          Edit cart
        </Link>
      </aside>
    </div>
  );
}
