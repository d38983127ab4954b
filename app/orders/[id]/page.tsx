import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { OrderSummary } from "@/components/order-summary";
import { findProduct } from "@/lib/catalog";
import type { ReturnOutcome } from "@/lib/checkout";
import { multiply } from "@/lib/money";
import { getSession } from "@/lib/session";

export const metadata: Metadata = { title: "Your order" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const outcomeSchema = z.enum(["paid", "cancelled", "already_settled", "token_mismatch", "invalid_redirect", "no_order"]);

/** Notices for redirects that changed nothing. They never claim a payment: the order's own status does that. */
const NOTICES: Partial<Record<ReturnOutcome, string>> = {
  already_settled: "This payment had already been recorded, so nothing changed.",
  token_mismatch: "That link belongs to a different payment, so your order was not changed.",
  invalid_redirect: "The payment page sent you back with a link we could not read, so your order was not changed.",
};

export default async function OrderPage({ params, searchParams }: Props) {
  const [{ id }, query, session] = await Promise.all([params, searchParams, getSession()]);
  const outcome = outcomeSchema.safeParse(query.outcome);
  const notice = outcome.success ? NOTICES[outcome.data] : undefined;
  const order = session.order?.id === id ? session.order : undefined;

  if (!order) {
    return (
      <section className="mx-auto max-w-lg py-12 text-center">
        <h1 className="text-2xl font-semibold">We can&apos;t find this order</h1>
        <p className="mt-2 text-stone-600">
          Orders are kept in the browser they were placed in. If you paid, you will receive a confirmation from the shop.
        </p>
        <Link href="/cart" className="mt-6 inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800">
          Go to your cart
        </Link>
      </section>
    );
  }

  const lines = order.lines.map((line) => ({
    name: findProduct(line.slug)?.name ?? line.slug,
    quantity: line.quantity,
    totalMinor: multiply(line.unitMinor, line.quantity),
  }));

  return (
    <section className="mx-auto max-w-lg">
      {notice && (
        <p role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {notice}
        </p>
      )}
      {order.status === "paid" && (
        <>
          <h1 className="text-2xl font-semibold text-brand-800">Thank you, your payment was successful</h1>
          <p className="mt-2 text-stone-700">
            The payment page reported your payment as completed. We will confirm your order once the payment service has
            confirmed the payment to us; you will not be charged twice.
          </p>
        </>
      )}
      {order.status === "cancelled" && (
        <>
          <h1 className="text-2xl font-semibold">Your payment was cancelled</h1>
          <p className="mt-2 text-stone-700">You have not been charged. Your cart is still there if you want to try again.</p>
          <Link href="/cart" className="mt-4 inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800">
            Back to your cart
          </Link>
        </>
      )}
      {order.status === "pending" && (
        <>
          <h1 className="text-2xl font-semibold">Waiting for your payment</h1>
          <p className="mt-2 text-stone-700">We have not heard back from the payment page yet.</p>
        </>
      )}
      <div className="mt-6 rounded-xl border border-sand-200 bg-white p-4">
        <h2 className="font-semibold">
          Order <span className="font-mono text-sm">{order.id}</span>
        </h2>
        <OrderSummary lines={lines} totalMinor={order.amountMinor} />
      </div>
    </section>
  );
}
