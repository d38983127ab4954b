"use client";

import { useActionState } from "react";
import { adjustStockAction, type StockFormState } from "@/app/admin/products/actions";
import type { STOCK_MODES } from "@/lib/catalog/back-office";
import { Choice, FormField } from "../form-field";
import { SubmitButton } from "../submit-button";
import { Notice } from "./section";

/** The ways to change stock (lib/catalog/back-office.ts, which is server-only). */
const MODES = ["change", "set", "untracked"] as const satisfies typeof STOCK_MODES;

/** The stock form's texts, in the admin's language (the page translates them). */
export interface StockFormLabels {
  mode: string;
  modes: Record<(typeof MODES)[number], string>;
  amount: string;
  amountHint: string;
  reason: string;
  reasonHint: string;
  submit: string;
  submitting: string;
}

/**
 * Adjusts a product's stock with a reason, posted to `adjustStockAction`: a signed change (`+10`, `−2`), a new count,
 * or no longer counted. A refused form keeps what was typed and says what is wrong by each field; a done one is
 * emptied and says what changed. Works without JavaScript.
 */
export function StockForm({
  id,
  counted,
  labels,
}: {
  id: number;
  /** Whether the product's stock is counted now: a product not counted starts with a count, not a change. */
  counted: boolean;
  labels: StockFormLabels;
}) {
  const [state, action] = useActionState(adjustStockAction, { values: {} } as StockFormState);
  const errors = state.fieldErrors ?? {};
  const mode = state.values.mode ?? (counted ? "change" : "set");
  const field = (name: "amount" | "reason") => ({
    id: `stock-${name}`,
    name,
    label: labels[name],
    hint: labels[`${name}Hint`],
    error: errors[name],
    defaultValue: state.values[name] ?? "",
  });
  return (
    <form action={action} noValidate className="grid gap-3">
      <input type="hidden" name="id" value={id} />
      {state.message && (
        <Notice
          tone={state.done ? "saved" : "error"}
          role={state.done ? "status" : "alert"}
          testId="stock-form-message"
        >
          {state.message}
        </Notice>
      )}
      <fieldset>
        <legend className="text-sm font-medium">{labels.mode}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {MODES.map((option) => (
            <Choice
              key={option}
              type="radio"
              name="mode"
              value={option}
              defaultChecked={mode === option}
              label={labels.modes[option]}
            />
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField inputMode="numeric" dir="ltr" {...field("amount")} />
        <FormField dir="auto" maxLength={200} {...field("reason")} />
      </div>
      <div>
        <SubmitButton pendingLabel={labels.submitting}>{labels.submit}</SubmitButton>
      </div>
    </form>
  );
}
