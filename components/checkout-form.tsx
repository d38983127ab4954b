"use client";

import { useActionState, useEffect, useRef } from "react";
import { startCheckout, type CheckoutState } from "@/app/(shop)/checkout/actions";
import type { Gateway } from "@/lib/gateways";
import { SubmitButton } from "./submit-button";

const initialState: CheckoutState = { values: {} };

export interface CheckoutLabels {
  details: string;
  optional: string;
  fullName: string;
  email: string;
  phone: string;
  phoneHint: string;
  method: string;
  methodNote: string;
  submit: string;
  submitting: string;
}

/**
 * The checkout form: the customer's optional details and the gateway picker (the first entry, alias "", lets the
 * customer choose on the payment page), posted to the `startCheckout` server action. Works without JavaScript;
 * with it, the button shows progress and cannot be pressed twice, errors are announced and focus moves to the error
 * summary, whose links lead to each field.
 */
export function CheckoutForm({ gateways, labels }: { gateways: readonly Gateway[]; labels: CheckoutLabels }) {
  const [state, action] = useActionState(startCheckout, initialState);
  const summary = useRef<HTMLDivElement>(null);
  const errors = state.fieldErrors ?? {};
  const fields = [
    { name: "full_name", label: labels.fullName, type: "text", autoComplete: "name", hint: undefined },
    { name: "email", label: labels.email, type: "email", autoComplete: "email", hint: undefined },
    { name: "phone", label: labels.phone, type: "tel", autoComplete: "tel", hint: labels.phoneHint },
  ] as const;

  useEffect(() => {
    if (state.message) summary.current?.focus();
  }, [state]);

  return (
    <form action={action} noValidate className="mt-6 space-y-6">
      {state.message && (
        <div
          ref={summary}
          tabIndex={-1}
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
          data-testid="checkout-error"
        >
          <p className="font-medium">{state.message}</p>
          {Object.keys(errors).length > 0 && (
            <ul className="mt-2 list-disc ps-5 text-sm">
              {Object.entries(errors).map(([field, message]) => (
                <li key={field}>
                  <a href={`#${field}`} className="underline">
                    {message}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <fieldset className="space-y-4">
        <legend className="text-lg font-semibold">{labels.details}</legend>
        {fields.map((field) => {
          const error = errors[field.name];
          const describedBy =
            [field.hint && `${field.name}-hint`, error && `${field.name}-error`].filter(Boolean).join(" ") || undefined;
          return (
            <div key={field.name}>
              <label htmlFor={field.name} className="block text-sm font-medium">
                {field.label} <span className="font-normal text-stone-600">{labels.optional}</span>
              </label>
              {field.hint && (
                <p id={`${field.name}-hint`} className="text-sm text-stone-600">
                  {field.hint}
                </p>
              )}
              <input
                id={field.name}
                name={field.name}
                type={field.type}
                dir={field.type === "text" ? "auto" : "ltr"}
                autoComplete={field.autoComplete}
                defaultValue={state.values[field.name] ?? ""}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                className={`mt-1 w-full rounded-lg border px-3 py-2 text-start ${error ? "border-red-600" : "border-stone-300"}`}
              />
              {error && (
                <p id={`${field.name}-error`} className="mt-1 text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </fieldset>

      <fieldset aria-describedby="gateway-note">
        <legend className="text-lg font-semibold">{labels.method}</legend>
        <p id="gateway-note" className="text-sm text-stone-600">
          {labels.methodNote}
        </p>
        {errors.payment_gateway && <p className="mt-1 text-sm text-red-700">{errors.payment_gateway}</p>}
        <div id="payment_gateway" tabIndex={-1} className="mt-3 grid gap-2 sm:grid-cols-2">
          {gateways.map((gateway) => (
            <label
              key={gateway.alias || "none"}
              className="flex cursor-pointer items-center gap-3 rounded-lg border border-stone-300 bg-white px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="payment_gateway"
                value={gateway.alias}
                defaultChecked={(state.values.payment_gateway ?? "") === gateway.alias}
                className="accent-brand-700"
              />
              {gateway.name}
            </label>
          ))}
        </div>
      </fieldset>

      <SubmitButton pendingLabel={labels.submitting} className="w-full sm:w-auto">
        {labels.submit}
      </SubmitButton>
    </form>
  );
}
