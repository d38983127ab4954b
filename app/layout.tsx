import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { getSession } from "@/lib/session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Medina Market", template: "%s · Medina Market" },
  description: "A demo shop with a hosted checkout for Libyan payment gateways.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#115c3b" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const { cart } = await getSession();
  const count = cart.lines.reduce((n, line) => n + line.quantity, 0);
  return (
    <html lang="en" dir="ltr">
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="border-b border-sand-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
            <Link href="/" className="text-lg font-semibold tracking-tight text-brand-800">
              Medina Market
            </Link>
            <Link
              href="/cart"
              className="rounded-full border border-sand-200 px-4 py-1.5 text-sm font-medium hover:bg-sand-100"
              aria-label={`Cart, ${count} ${count === 1 ? "item" : "items"}`}
            >
              Cart <span className="ms-1 rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white" data-testid="cart-count">{count}</span>
            </Link>
          </nav>
        </header>
        <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">
          {children}
        </main>
        <footer className="border-t border-sand-200 bg-white">
          <p className="mx-auto max-w-5xl px-4 py-4 text-sm text-stone-600">
            Demo shop. Payments run through the payment service&apos;s hosted checkout; no card details ever reach this site.
          </p>
        </footer>
      </body>
    </html>
  );
}
