import type { Metadata } from "next";
import Image from "next/image";
import { notFound } from "next/navigation";
import { AddToCartForm } from "@/components/add-to-cart-form";
import { findProduct } from "@/lib/catalog";
import { formatMoney } from "@/lib/money";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const product = findProduct((await params).slug);
  return { title: product?.name ?? "Product not found" };
}

export default async function ProductPage({ params }: Props) {
  const product = findProduct((await params).slug);
  if (!product) notFound();
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <Image src={product.image} alt="" width={600} height={600} priority className="aspect-square w-full rounded-xl border border-sand-200 bg-sand-100" />
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{product.name}</h1>
        <p className="mt-2 text-xl">{formatMoney(product.priceMinor)}</p>
        <p className="mt-4 text-stone-700">{product.description}</p>
        <AddToCartForm slug={product.slug} />
      </div>
    </article>
  );
}
