"use client";

import { useActionState, useEffect, useRef } from "react";
import {
  saveZoneAction,
  savePickupAction,
  type DeliveryFormState,
  type PickupFormState,
  type ZoneFormState,
} from "@/app/admin/delivery/actions";
import type { PickupField, ZoneField } from "@/lib/delivery/editing";
import { SubmitButton } from "../submit-button";
import { card } from "../styles";

/** A delivery form's texts, in the admin's language (the page translates them). */
export interface DeliveryFormLabels<Field extends string> {
  fields: Record<Field, string>;
  hints: Partial<Record<Field, string>>;
  submit: string;
  submitting: string;
}

/** A text field of a form: its name, and the direction it is written in whatever the page's. */
type TextField<Field extends string> = { name: Exclude<Field, "enabled">; dir: "ltr" | "rtl" };

const ZONE_FIELDS: TextField<ZoneField>[] = [
  { name: "nameEn", dir: "ltr" },
  { name: "nameAr", dir: "rtl" },
  { name: "fee", dir: "ltr" },
  { name: "freeAbove", dir: "ltr" },
  { name: "sortOrder", dir: "ltr" },
];

const PICKUP_FIELDS: TextField<PickupField>[] = [
  { name: "addressEn", dir: "ltr" },
  { name: "addressAr", dir: "rtl" },
  { name: "hoursEn", dir: "ltr" },
  { name: "hoursAr", dir: "rtl" },
];

/**
 * The form both delivery forms are: a summary of problems (focused after a refused submission, its links lead to each
 * field), the text fields with their hint and message, the `enabled` checkbox, the submit button. Works without
 * JavaScript; what was typed comes back after a refusal.
 */
function DeliveryForm<Field extends string>({
  state,
  action,
  fields,
  labels,
  hidden,
  testId,
}: {
  state: DeliveryFormState<Field>;
  action: (form: FormData) => void;
  fields: TextField<Field>[];
  labels: DeliveryFormLabels<Field>;
  hidden?: Record<string, string | number>;
  testId: string;
}) {
  const summary = useRef<HTMLDivElement>(null);
  const errors: Partial<Record<string, string>> = state.fieldErrors ?? {};
  useEffect(() => {
    if (state.message) summary.current?.focus();
  }, [state]);
  const label = (field: string) => labels.fields[field as Field];

  return (
    <form action={action} noValidate className={`grid gap-4 ${card} p-4`}>
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {state.message && (
        <div
          ref={summary}
          tabIndex={-1}
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
          data-testid={`${testId}-error`}
        >
          <p className="font-medium">{state.message}</p>
          <ul className="mt-2 list-disc ps-5 text-sm">
            {Object.entries(errors).map(([field, message]) => (
              <li key={field}>
                <a href={`#${testId}-${field}`} className="underline">
                  {label(field)}: {message}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          name="enabled"
          defaultChecked={state.values.enabled ?? false}
          className="accent-brand-700"
        />
        {label("enabled")}
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map(({ name, dir }) => {
          const id = `${testId}-${name}`;
          const error = errors[name];
          const hint = labels.hints[name];
          const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
          return (
            <div key={name}>
              <label htmlFor={id} className="block text-sm font-medium">
                {label(name)}
              </label>
              {hint && (
                <p id={`${id}-hint`} className="text-sm text-stone-600">
                  {hint}
                </p>
              )}
              <input
                type="text"
                id={id}
                name={name}
                dir={dir}
                defaultValue={state.values[name] ?? ""}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                className={`mt-1 w-full rounded-lg border px-3 py-2 ${error ? "border-red-600" : "border-stone-300"}`}
              />
              {error && (
                <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
      <div>
        <SubmitButton pendingLabel={labels.submitting}>{labels.submit}</SubmitButton>
      </div>
    </form>
  );
}

/** Adds a delivery zone, or edits one (`id`), posted to `saveZoneAction`. */
export function ZoneForm({
  id,
  initial,
  labels,
}: {
  id?: number;
  initial: ZoneFormState["values"];
  labels: DeliveryFormLabels<ZoneField>;
}) {
  const [state, action] = useActionState(saveZoneAction, { values: initial });
  return (
    <DeliveryForm
      state={state}
      action={action}
      fields={ZONE_FIELDS}
      labels={labels}
      hidden={id === undefined ? undefined : { id }}
      testId="zone"
    />
  );
}

/** Pickup's settings, posted to `savePickupAction`. */
export function PickupForm({
  initial,
  labels,
}: {
  initial: PickupFormState["values"];
  labels: DeliveryFormLabels<PickupField>;
}) {
  const [state, action] = useActionState(savePickupAction, { values: initial });
  return <DeliveryForm state={state} action={action} fields={PICKUP_FIELDS} labels={labels} testId="pickup" />;
}
