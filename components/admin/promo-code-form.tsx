"use client";

import { useActionState } from "react";
import { savePromoCodeAction, type PromoCodeFormState } from "@/app/admin/promo-codes/actions";
import type { PromoCodeKind } from "@/lib/db/schema";
import type { PromoCodeField } from "@/lib/promo-codes/editing";
import { ErrorSummary } from "../error-summary";
import { Choice, FormField } from "../form-field";
import { SubmitButton } from "../submit-button";
import { card } from "../styles";

/** The code form's texts, in the admin's language (the page translates them). */
export interface PromoCodeFormLabels {
  fields: Record<PromoCodeField, string>;
  kinds: Record<PromoCodeKind, string>;
  hints: Partial<Record<PromoCodeField, string>>;
  submit: string;
  submitting: string;
}

type TextField = Exclude<PromoCodeField, "kind" | "enabled">;

/** The text fields after the kind, in the form's order, with their input's type and keyboard. */
const FIELDS: { name: TextField; type?: string; inputMode?: "numeric" | "decimal" }[] = [
  { name: "value", inputMode: "decimal" },
  { name: "minLines", inputMode: "decimal" },
  { name: "startsAt", type: "datetime-local" },
  { name: "endsAt", type: "datetime-local" },
  { name: "maxUses", inputMode: "numeric" },
  { name: "maxUsesPerCustomer", inputMode: "numeric" },
];

const KINDS: PromoCodeKind[] = ["percent", "amount", "free_delivery"];

/**
 * Adds a promo code, or edits one (`id`), posted to `savePromoCodeAction`: on or off, the code, what it takes off
 * (radio buttons) and how much, the minimum, the dates in Libya's time, the limits. Works without JavaScript; after a
 * refusal a summary of problems leads to each field, and what was typed comes back.
 */
export function PromoCodeForm({
  id,
  initial,
  labels,
}: {
  id?: number;
  initial: PromoCodeFormState["values"];
  labels: PromoCodeFormLabels;
}) {
  const [state, action] = useActionState(savePromoCodeAction, { values: initial });
  const errors: Partial<Record<string, string>> = state.fieldErrors ?? {};
  const values = state.values as Partial<Record<string, string>>;
  const fieldId = (name: string) => (name === "kind" ? "promo-kind-percent" : `promo-${name}`);

  return (
    <form action={action} noValidate className={`grid gap-4 ${card} p-4`}>
      {id !== undefined && <input type="hidden" name="id" value={id} />}
      <ErrorSummary
        answer={state}
        fieldId={fieldId}
        label={(field) => labels.fields[field as PromoCodeField]}
        testId="promo-error"
      />
      <Choice
        type="checkbox"
        name="enabled"
        defaultChecked={state.values.enabled ?? false}
        label={labels.fields.enabled}
      />
      <FormField
        id="promo-code"
        name="code"
        label={labels.fields.code}
        hint={labels.hints.code}
        error={errors.code}
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        className="sm:max-w-sm"
        defaultValue={values.code ?? ""}
      />
      <fieldset aria-describedby={errors.kind ? "promo-kind-error" : undefined}>
        <legend className="text-sm font-medium">{labels.fields.kind}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6 gap-y-2">
          {KINDS.map((kind) => (
            <Choice
              key={kind}
              id={`promo-kind-${kind}`}
              type="radio"
              name="kind"
              value={kind}
              defaultChecked={values.kind === kind}
              label={labels.kinds[kind]}
            />
          ))}
        </div>
        {errors.kind && (
          <p id="promo-kind-error" className="mt-1 text-sm text-red-700">
            {errors.kind}
          </p>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map(({ name, type, inputMode }) => (
          <FormField
            key={name}
            id={`promo-${name}`}
            name={name}
            type={type}
            inputMode={inputMode}
            label={labels.fields[name]}
            hint={labels.hints[name]}
            error={errors[name]}
            dir="ltr"
            defaultValue={values[name] ?? ""}
          />
        ))}
      </div>
      <div>
        <SubmitButton pendingLabel={labels.submitting}>{labels.submit}</SubmitButton>
      </div>
    </form>
  );
}
