"use client";

import { useActionState } from "react";
import {
  saveZoneAction,
  savePickupAction,
  type DeliveryFormState,
  type PickupFormState,
  type ZoneFormState,
} from "@/app/admin/delivery/actions";
import type { PickupField, ZoneField } from "@/lib/delivery/editing";
import { ErrorSummary } from "../error-summary";
import { Choice, FormField } from "../form-field";
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
  const errors: Partial<Record<string, string>> = state.fieldErrors ?? {};
  const label = (field: string) => labels.fields[field as Field];

  return (
    <form action={action} noValidate className={`grid gap-4 ${card} p-4`}>
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {state.message && (
        <ErrorSummary
          message={state.message}
          problems={Object.entries(errors).map(([field, message]) => ({
            href: `#${testId}-${field}`,
            text: `${label(field)}: ${message}`,
          }))}
          answer={state}
          testId={`${testId}-error`}
        />
      )}
      <Choice type="checkbox" name="enabled" defaultChecked={state.values.enabled ?? false} label={label("enabled")} />
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map(({ name, dir }) => (
          <FormField
            key={name}
            id={`${testId}-${name}`}
            name={name}
            label={label(name)}
            hint={labels.hints[name]}
            error={errors[name]}
            dir={dir}
            defaultValue={state.values[name] ?? ""}
          />
        ))}
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
