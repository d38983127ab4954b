"use client";

import { useEffect, useRef } from "react";
import type { CheckoutField } from "@/lib/checkout/form";
import type { ShownPrices } from "@/lib/checkout/shown-prices";
import type { Gateway } from "@/lib/gateways";
import {
  appliedPromo,
  cashAllowed,
  postedChoice,
  useDeliveryChoice,
  type CashOption,
  type OfferedZone,
} from "./checkout-delivery";
import { ErrorSummary } from "./error-summary";
import { withCode } from "./order-summary";
import { FormField } from "./form-field";
import { SubmitButton } from "./submit-button";

export interface CheckoutLabels {
  details: string;
  optional: string;
  required: string;
  contactNote: string;
  fullName: string;
  email: string;
  phone: string;
  phoneHint: string;
  phoneCourier: string;
  method: string;
  methodNote: string;
  submit: string;
  submitting: string;
  delivery: string;
  deliverTo: string;
  pickup: string;
  city: string;
  chooseCity: string;
  address: string;
  addressHint: string;
  landmark: string;
  secondPhone: string;
  promo: PromoLabels;
}

/** The texts of the promo code's field; `applied` has a `{code}` placeholder. */
interface PromoLabels {
  label: string;
  hint: string;
  apply: string;
  applying: string;
  applied: string;
}

/** The texts of the "How do you want to pay?" question, in the shopper's language. */
export interface PayLabels {
  howToPay: string;
  online: string;
  onlineNote: string;
  cash: string;
  /** What paying cash means, with its fee when there is one. */
  cashNote: string;
  /** Said without JavaScript when some cities do not take cash (the server refuses those at the submit). */
  someCities?: string;
  gatewayOnline: string;
  submitCash: string;
  submittingCash: string;
}

/** What a cart of goods is asked: the zones offered, and pickup's place and hours when the merchant offers it. */
/** The "Text me about this order" box's label and hint, given when text messages are on (lib/env.ts, `smsSettings`). */
export interface SmsLabels {
  label: string;
  hint: string;
}

export interface DeliveryOffer {
  zones: OfferedZone[];
  /** Pickup's address and hours, in the shopper's language; absent when pickup is off. */
  pickup?: string;
}

/**
 * The checkout form: the customer's details, how a cart of goods reaches them (delivery to an address in a city, or
 * pickup — asked only when `delivery` is given), and the gateway picker (the first entry, alias "", lets the customer
 * choose on the payment page), posted to the `startCheckout` server action; the server decides what is required
 * (lib/checkout/form.ts). Works without JavaScript (every field rendered); with it, the address fields hide for pickup,
 * the order summary follows the city chosen (components/checkout-delivery.tsx), the button shows progress and cannot
 * be pressed twice, errors are announced and focus moves to the error summary, whose links lead to each field.
 * `shown` is the hidden field that tells the server the prices on this page (lib/checkout/shown-prices.ts): the
 * checkout is refused, naming the change, when the customer would pay anything else.
 * `cash`, when the merchant takes cash on delivery for this cart somewhere, asks "How do you want to pay?": online
 * now (the gateway picker) or cash. Without JavaScript it is asked whenever some city or pickup takes cash, and the
 * server refuses the others on the field; with it, only for a city or pickup that takes cash, the gateway picker
 * hides while paying cash, and the summary shows the cash fee and the total with it.
 * The promo code's field has an "Apply" button (`intent=apply`): the form comes back with the code applied — the
 * summary shows its discount, with JavaScript or without — or refused on its field. Enter in the code's field applies
 * it (with JavaScript); Enter anywhere else submits the checkout, as before the field was there.
 * `sms`, when text messages are on, adds the "Text me about this order" box under the phone (`sms_updates`). Ticked
 * when the form is first shown if it has no e-mail, as the customer left it after a refused post (a hidden `no` goes
 * before it: lib/checkout/form.ts, `readCheckoutValues`); with JavaScript it follows the e-mail field — ticked while
 * it is empty — until the customer touches the box.
 */
export function CheckoutForm({
  gateways,
  labels,
  delivery,
  shown,
  cash,
  sms,
}: {
  gateways: readonly Gateway[];
  labels: CheckoutLabels;
  delivery?: DeliveryOffer;
  shown: { name: string; prices: ShownPrices };
  cash?: CashOption & { labels: PayLabels };
  sms?: SmsLabels;
}) {
  const {
    choice,
    choose,
    checkout: [state, action],
  } = useDeliveryChoice();
  const errors = state.fieldErrors ?? {};
  const values = state.values;
  const codeRow = useRef<HTMLDivElement>(null);
  const smsBox = useRef<HTMLInputElement>(null);
  const smsTouched = useRef(false);

  useEffect(() => {
    // What was posted comes back with a failure: the summary follows it.
    choose(postedChoice(state));
  }, [state, choose]);
  const cashHere = cashAllowed(choice, delivery?.zones ?? [], cash, appliedPromo(state.promo, choice));
  const payingCash = cashHere && choice.pay === "cash";

  const field = (
    name: CheckoutField,
    label: string,
    {
      type = "text",
      autoComplete,
      hint,
      marker,
    }: { type?: string; autoComplete?: string; hint?: string; marker?: string },
  ) => (
    <FormField
      key={name}
      id={name}
      name={name}
      type={type}
      label={label}
      marker={marker}
      hint={hint}
      error={errors[name]}
      dir={type === "text" ? "auto" : "ltr"}
      autoComplete={autoComplete}
      defaultValue={values[name] ?? ""}
    />
  );

  const methodChosen = values.delivery_method ?? "delivery";
  const zoneError = errors.delivery_zone;
  return (
    <form action={action} noValidate className="mt-6 space-y-6">
      {/* The form's default button, first in it: Enter in a field submits the checkout, never "Apply". */}
      <button type="submit" hidden tabIndex={-1} />
      <input
        type="hidden"
        name={shown.name}
        value={JSON.stringify(state.promo ? { ...shown.prices, promo: state.promo } : shown.prices)}
      />
      <ErrorSummary answer={state} testId="checkout-error" />

      <fieldset
        className="space-y-4"
        aria-describedby={delivery ? undefined : "contact-note"}
        onChange={(event) => {
          const target = event.target as EventTarget as HTMLInputElement;
          if (target.name === "email" && smsBox.current && !smsTouched.current)
            smsBox.current.checked = target.value.trim() === "";
        }}
      >
        <legend className="text-lg font-semibold">{labels.details}</legend>
        {!delivery && (
          <p id="contact-note" className="text-sm text-stone-600">
            {labels.contactNote}
          </p>
        )}
        {field("full_name", labels.fullName, { autoComplete: "name", marker: labels.optional })}
        {field("email", labels.email, {
          type: "email",
          autoComplete: "email",
          marker: delivery ? labels.optional : undefined,
        })}
        {field("phone", labels.phone, {
          type: "tel",
          autoComplete: "tel",
          hint: delivery ? `${labels.phoneHint}. ${labels.phoneCourier}` : labels.phoneHint,
          marker: delivery ? labels.required : undefined,
        })}
        {sms && (
          <div>
            <input type="hidden" name="sms_updates" value="no" />
            <label className="flex items-center gap-2">
              <input
                ref={smsBox}
                id="sms_updates"
                type="checkbox"
                name="sms_updates"
                value="yes"
                defaultChecked={values.sms_updates === undefined ? !values.email?.trim() : values.sms_updates === "yes"}
                onChange={() => (smsTouched.current = true)}
                aria-describedby="sms_updates-hint"
                className="accent-brand-700"
              />
              {sms.label}
            </label>
            <p id="sms_updates-hint" className="ms-6 text-sm text-stone-600">
              {sms.hint}
            </p>
          </div>
        )}
      </fieldset>

      {delivery && (
        <fieldset className="space-y-4" data-testid="delivery-fieldset">
          <legend className="text-lg font-semibold">{labels.delivery}</legend>
          <div id="delivery_method" tabIndex={-1} className="grid gap-2">
            {errors.delivery_method && <p className="text-sm text-red-700">{errors.delivery_method}</p>}
            {(["delivery", ...(delivery.pickup ? ["pickup"] : [])] as const).map((method) => (
              <label
                key={method}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-stone-300 bg-white px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="delivery_method"
                  value={method}
                  defaultChecked={methodChosen === method}
                  onChange={() => choose({ ...choice, method })}
                  className="mt-1 accent-brand-700"
                />
                <span>
                  {method === "delivery" ? labels.deliverTo : labels.pickup}
                  {method === "pickup" && <span className="block text-sm text-stone-600">{delivery.pickup}</span>}
                </span>
              </label>
            ))}
          </div>
          {/* Hidden for pickup only once JavaScript runs: without it every field is there, and the server decides. */}
          <div className="space-y-4" hidden={choice.method === "pickup"} data-testid="address-fields">
            <div>
              <label htmlFor="delivery_zone" className="block text-sm font-medium">
                {labels.city} <span className="font-normal text-stone-600">{labels.required}</span>
              </label>
              {/* Keyed by what was posted: React applies a select's defaultValue only when it mounts, and the form's
                  reset after a failed submission would otherwise go back to "Choose your city". */}
              <select
                key={values.delivery_zone ?? ""}
                id="delivery_zone"
                name="delivery_zone"
                defaultValue={values.delivery_zone ?? ""}
                onChange={(event) => choose({ ...choice, zone: event.target.value })}
                aria-invalid={zoneError ? true : undefined}
                aria-describedby={zoneError ? "delivery_zone-error" : undefined}
                className={`mt-1 w-full rounded-lg border bg-white px-3 py-2 ${zoneError ? "border-red-600" : "border-stone-300"}`}
              >
                <option value="">{labels.chooseCity}</option>
                {delivery.zones.map((zone) => (
                  <option key={zone.id} value={zone.id}>
                    {zone.option}
                  </option>
                ))}
              </select>
              {zoneError && (
                <p id="delivery_zone-error" className="mt-1 text-sm text-red-700">
                  {zoneError}
                </p>
              )}
            </div>
            {field("delivery_address", labels.address, {
              autoComplete: "street-address",
              hint: labels.addressHint,
              marker: labels.required,
            })}
            {field("delivery_landmark", labels.landmark, { marker: labels.optional })}
            {field("second_phone", labels.secondPhone, {
              type: "tel",
              hint: labels.phoneHint,
              marker: labels.optional,
            })}
          </div>
        </fieldset>
      )}

      {cash && (
        // Not asked (and nothing posted: online) for a city or pickup that does not take cash, once JavaScript runs.
        <fieldset className="space-y-2" hidden={!cashHere} disabled={!cashHere} data-testid="pay-fieldset">
          <legend className="text-lg font-semibold">{cash.labels.howToPay}</legend>
          {errors.payment_method && (
            <p id="payment_method-error" className="text-sm text-red-700">
              {errors.payment_method}
            </p>
          )}
          <div id="payment_method" tabIndex={-1} className="grid gap-2">
            {(["online", "cash"] as const).map((way) => (
              <label
                key={way}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-stone-300 bg-white px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="payment_method"
                  value={way}
                  defaultChecked={(values.payment_method || "online") === way}
                  onChange={() => choose({ ...choice, pay: way })}
                  aria-describedby={errors.payment_method ? "payment_method-error" : undefined}
                  className="mt-1 accent-brand-700"
                />
                <span>
                  {way === "online" ? cash.labels.online : cash.labels.cash}
                  <span className="block text-sm text-stone-600">
                    {way === "online" ? cash.labels.onlineNote : cash.labels.cashNote}
                  </span>
                  {way === "cash" && cash.labels.someCities && (
                    <span className="block text-sm text-stone-600">{cash.labels.someCities}</span>
                  )}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <fieldset aria-describedby="gateway-note" hidden={payingCash} data-testid="gateway-fieldset">
        <legend className="text-lg font-semibold">{labels.method}</legend>
        <p id="gateway-note" className="text-sm text-stone-600">
          {cash ? `${labels.methodNote} ${cash.labels.gatewayOnline}` : labels.methodNote}
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
                defaultChecked={(values.payment_gateway ?? "") === gateway.alias}
                className="accent-brand-700"
              />
              {gateway.name}
            </label>
          ))}
        </div>
      </fieldset>

      <div>
        <label htmlFor="promo_code" className="block text-sm font-medium">
          {labels.promo.label} <span className="font-normal text-stone-600">{labels.optional}</span>
        </label>
        <p id="promo_code-hint" className="text-sm text-stone-600">
          {labels.promo.hint}
        </p>
        <div className="mt-1 flex gap-2" ref={codeRow}>
          <input
            id="promo_code"
            name="promo_code"
            type="text"
            dir="ltr"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            defaultValue={values.promo_code ?? ""}
            aria-invalid={errors.promo_code ? true : undefined}
            aria-describedby={["promo_code-hint", errors.promo_code && "promo_code-error", "promo_code-status"]
              .filter(Boolean)
              .join(" ")}
            onChange={(event) => choose({ ...choice, code: event.target.value.trim().toUpperCase() })}
            onKeyDown={(event) => {
              // Enter here applies the code rather than submitting the checkout.
              if (event.key !== "Enter") return;
              event.preventDefault();
              const apply = codeRow.current?.querySelector("button");
              event.currentTarget.form?.requestSubmit(apply ?? undefined);
            }}
            className={`w-full rounded-lg border px-3 py-2 text-start uppercase ${errors.promo_code ? "border-red-600" : "border-stone-300"}`}
          />
          <SubmitButton intent="apply" variant="secondary" pendingLabel={labels.promo.applying} className="shrink-0">
            {labels.promo.apply}
          </SubmitButton>
        </div>
        {errors.promo_code && (
          <p id="promo_code-error" className="mt-1 text-sm text-red-700">
            {errors.promo_code}
          </p>
        )}
        <p id="promo_code-status" role="status" className="mt-1 text-sm text-green-800">
          {state.promo && !errors.promo_code ? withCode(labels.promo.applied, state.promo.code) : null}
        </p>
      </div>

      <SubmitButton
        pendingLabel={payingCash ? cash!.labels.submittingCash : labels.submitting}
        className="w-full sm:w-auto"
      >
        {payingCash ? cash!.labels.submitCash : labels.submit}
      </SubmitButton>
    </form>
  );
}
