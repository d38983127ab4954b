"use client";

import { useActionState } from "react";
import type { AfterSaleAction, AfterSaleFormState } from "@/app/admin/orders/[id]/after-sale-actions";
import { ErrorSummary } from "../../error-summary";
import { Choice, FormField } from "../../form-field";
import { SubmitButton } from "../../submit-button";

/**
 * One control of an after-sale form, its words already in the reader's language (the page translates them): a text
 * field (`multiline` for a note), a box, a group of radios, or a fieldset of controls (the order's lines).
 */
export type AfterSaleControl =
  | {
      kind: "text";
      name: string;
      label: string;
      hint?: string;
      defaultValue?: string;
      multiline?: boolean;
      maxLength: number;
      ltr?: boolean;
      numeric?: "decimal" | "numeric";
    }
  | { kind: "checkbox"; name: string; label: string; defaultChecked: boolean }
  | { kind: "radios"; name: string; legend: string; options: { value: string; label: string }[] }
  | { kind: "group"; legend: string; controls: AfterSaleControl[] };

/**
 * A form of the order page's cancel, refund and return (components/admin/order/after-sale.tsx), posted to its server
 * action: hidden fields (the order, the request key), its controls, the button. Works without JavaScript; a refused
 * form comes back with a summary of problems, a message on each field and what was typed.
 */
export function AfterSaleForm({
  action,
  hidden,
  controls,
  submit,
  saving,
  testId,
  secondary = false,
}: {
  action: AfterSaleAction;
  hidden: Record<string, string>;
  controls: AfterSaleControl[];
  submit: string;
  saving: string;
  testId: string;
  secondary?: boolean;
}) {
  const [state, formAction] = useActionState<AfterSaleFormState, FormData>(action, { values: {} });
  const errors = state.fieldErrors ?? {};
  const labelOf = new Map<string, string>();
  const collect = (list: AfterSaleControl[]) => {
    for (const control of list)
      if (control.kind === "group") collect(control.controls);
      else labelOf.set(control.name, control.kind === "radios" ? control.legend : control.label);
  };
  collect(controls);

  const render = (control: AfterSaleControl, index: number): React.ReactNode => {
    if (control.kind === "group")
      return (
        <fieldset key={`group-${index}`} className="grid gap-2 rounded-lg border border-stone-200 p-3">
          <legend className="px-1 text-sm font-medium">{control.legend}</legend>
          {control.controls.map(render)}
        </fieldset>
      );
    const typed = state.values[control.name];
    const error = errors[control.name];
    if (control.kind === "checkbox")
      return (
        <div key={control.name} className="text-sm">
          <Choice
            type="checkbox"
            name={control.name}
            label={control.label}
            defaultChecked={typeof typed === "boolean" ? typed : control.defaultChecked}
          />
        </div>
      );
    if (control.kind === "radios") {
      const id = `${testId}-${control.name}`;
      return (
        <fieldset
          key={control.name}
          id={id}
          tabIndex={-1}
          aria-describedby={error ? `${id}-error` : undefined}
          className="grid gap-1 text-sm"
        >
          <legend className="font-medium">{control.legend}</legend>
          {control.options.map((option) => (
            <Choice
              key={option.value}
              type="radio"
              name={control.name}
              value={option.value}
              label={option.label}
              defaultChecked={typed === option.value}
            />
          ))}
          {error && (
            <p id={`${id}-error`} className="text-red-700">
              {error}
            </p>
          )}
        </fieldset>
      );
    }
    return (
      <FormField
        key={control.name}
        id={`${testId}-${control.name}`}
        name={control.name}
        label={control.label}
        hint={control.hint}
        error={error}
        multiline={control.multiline}
        rows={control.multiline ? 2 : undefined}
        maxLength={control.maxLength}
        dir={control.ltr ? "ltr" : "auto"}
        inputMode={control.numeric}
        defaultValue={typeof typed === "string" ? typed : (control.defaultValue ?? "")}
      />
    );
  };

  return (
    <form action={formAction} noValidate className="grid content-start gap-3 sm:max-w-xl" data-testid={testId}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <ErrorSummary
        answer={state}
        fieldId={(name) => `${testId}-${name}`}
        label={(name) => labelOf.get(name) ?? name}
        testId={`${testId}-error`}
      />
      {controls.map(render)}
      <div>
        <SubmitButton pendingLabel={saving} variant={secondary ? "secondary" : "primary"}>
          {submit}
        </SubmitButton>
      </div>
    </form>
  );
}
