"use client";

import { useFormStatus } from "react-dom";
import { primaryAction } from "./styles";

/**
 * A submit button that shows progress and cannot be pressed twice while its form is being submitted.
 * Without JavaScript it is a plain submit button. `intent`, for a form with more than one button (the checkout's
 * "Apply" beside its promo code): the button posts `intent=<intent>`, and each button shows progress only for its own
 * submissions (a button without one, for those that post no intent).
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
  className = "",
  intent,
}: {
  children: React.ReactNode;
  pendingLabel: string;
  variant?: "primary" | "secondary" | "link";
  className?: string;
  intent?: string;
}) {
  const { pending, data } = useFormStatus();
  const mine = pending && (data?.get("intent") ?? undefined) === intent;
  const styles = {
    primary: `${primaryAction} disabled:cursor-progress disabled:opacity-70`,
    secondary:
      "rounded-lg border border-sand-200 bg-white px-3 py-1.5 text-sm font-medium hover:bg-sand-100 disabled:opacity-70",
    link: "text-sm text-red-700 underline-offset-2 hover:underline disabled:opacity-70",
  }[variant];
  return (
    <button
      type="submit"
      {...(intent ? { name: "intent", value: intent } : {})}
      disabled={pending}
      aria-disabled={pending}
      className={`${styles} ${className}`}
    >
      {mine ? (
        <span role="status" className="inline-flex items-center gap-2">
          <span
            aria-hidden="true"
            className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent"
          />
          {pendingLabel}
        </span>
      ) : (
        children
      )}
    </button>
  );
}
