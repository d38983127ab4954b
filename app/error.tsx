"use client";

/** Last-resort error page: a plain-language message instead of a bare 500. The cart lives in the cookie, untouched. */
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="mx-auto max-w-md py-12 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-stone-600">Sorry, this page could not be shown. Your cart is saved.</p>
      <button type="button" onClick={reset} className="mt-6 rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800">
        Try again
      </button>
    </section>
  );
}
