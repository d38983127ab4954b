"use client";

import { useActionState } from "react";
import { saveCashSettingsAction, type CashFlag, type CashFormState } from "@/app/admin/cash/actions";
import type { CashSettingsField } from "@/lib/cash/editing";
import { SettingsForm, type DeliveryFormLabels, type TextField } from "./delivery-forms";

const CASH_FIELDS: TextField<CashSettingsField, CashFlag>[] = [
  { name: "maxTotal", dir: "ltr" },
  { name: "fee", dir: "ltr" },
  { name: "confirmWithinHours", dir: "ltr" },
];

/** Cash on delivery's settings, posted to `saveCashSettingsAction`; works without JavaScript. */
export function CashSettingsForm({
  initial,
  labels,
}: {
  initial: CashFormState["values"];
  labels: DeliveryFormLabels<CashSettingsField>;
}) {
  const [state, action] = useActionState(saveCashSettingsAction, { values: initial });
  return (
    <SettingsForm
      state={state}
      action={action}
      flags={["enabled", "atPickup"]}
      fields={CASH_FIELDS}
      labels={labels}
      testId="cash"
    />
  );
}
