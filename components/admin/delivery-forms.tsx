"use client";

import { useActionState } from "react";
import {
  saveZoneAction,
  savePickupAction,
  type PickupFormState,
  type ZoneFlag,
  type ZoneFormState,
} from "@/app/admin/delivery/actions";
import type { SettingsFormState } from "@/app/admin/delivery/form-state";
import type { PickupField, ZoneField } from "@/lib/delivery/editing";
import { ErrorSummary } from "../error-summary";
import { Choice, FormField } from "../form-field";
import { SubmitButton } from "../submit-button";
import { card } from "../styles";

/** A settings form's texts, in the admin's language (the page translates them). */
export interface DeliveryFormLabels<Field extends string> {
  fields: Record<Field, string>;
  hints: Partial<Record<Field, string>>;
  submit: string;
  submitting: string;
}

/** A text field of a form: its name, and the direction it is written in whatever the page's. */
export type TextField<Field extends string, Flag extends string = "enabled"> = {
  name: Exclude<Field, Flag>;
  dir: "ltr" | "rtl";
};

const ZONE_FIELDS: TextField<ZoneField, ZoneFlag>[] = [
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
 * The form the settings forms are (delivery's zone and pickup, cash on delivery's): a summary of problems (focused after
 * a refused submission, its links lead to each field), the checkboxes (`flags`, `enabled` unless told), the text
 * fields with their hint and message, the submit button. Works without JavaScript; what was typed comes back after a
 * refusal.
 */
export function SettingsForm<Field extends string, Flag extends string = "enabled">({
  state,
  action,
  flags = ["enabled" as Flag],
  fields,
  labels,
  hidden,
  testId,
}: {
  state: SettingsFormState<Field, Flag>;
  action: (form: FormData) => void;
  flags?: Flag[];
  fields: TextField<Field, Flag>[];
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
      <ErrorSummary answer={state} fieldId={(field) => `${testId}-${field}`} label={label} testId={`${testId}-error`} />
      {flags.map((flag) => (
        <Choice
          key={flag}
          type="checkbox"
          name={flag}
          defaultChecked={(state.values as Partial<Record<Flag, boolean>>)[flag] ?? false}
          label={label(flag)}
        />
      ))}
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
            defaultValue={(state.values as Partial<Record<string, string>>)[name] ?? ""}
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
    <SettingsForm
      state={state}
      action={action}
      flags={["enabled", "cashOnDelivery"]}
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
  return <SettingsForm state={state} action={action} fields={PICKUP_FIELDS} labels={labels} testId="pickup" />;
}
