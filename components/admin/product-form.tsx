"use client";

import { useActionState } from "react";
import { saveProductAction, type ProductFormState } from "@/app/admin/products/actions";
import type { ProductField } from "@/lib/catalog/editing";
import { ErrorSummary } from "../error-summary";
import { Choice, FormField } from "../form-field";
import { SubmitButton } from "../submit-button";
import { card } from "../styles";

/** The product form's texts, in the admin's language (the page translates them). */
export interface ProductFormLabels {
  fields: Record<ProductField, string>;
  hints: Partial<Record<ProductField, string>>;
  kinds: Record<"physical" | "digital", string>;
  submit: string;
  submitting: string;
}

/** The text fields, in the form's order: which are long, and which are written in one direction whatever the page's. */
const TEXT_FIELDS: { name: Exclude<ProductField, "kind" | "visible">; multiline?: boolean; dir?: "ltr" | "rtl" }[] = [
  { name: "nameEn", dir: "ltr" },
  { name: "nameAr", dir: "rtl" },
  { name: "slug", dir: "ltr" },
  { name: "price", dir: "ltr" },
  { name: "stock", dir: "ltr" },
  { name: "sortOrder", dir: "ltr" },
  { name: "maxPerOrder", dir: "ltr" },
  { name: "descriptionEn", multiline: true, dir: "ltr" },
  { name: "descriptionAr", multiline: true, dir: "rtl" },
];

/**
 * Adds a product, or edits one (`id`), posted to `saveProductAction`. Works without JavaScript; with it, a refused
 * form keeps what was typed, focus moves to the summary of problems, whose links lead to each field. The stock field is
 * only on the new product's form: afterwards stock changes with a reason (the stock form).
 */
export function ProductForm({
  id,
  initial,
  labels,
}: {
  id?: number;
  initial: ProductFormState["values"];
  labels: ProductFormLabels;
}) {
  const [state, action] = useActionState(saveProductAction, { values: initial });
  const errors = state.fieldErrors ?? {};

  return (
    <form action={action} noValidate className={`grid gap-4 ${card} p-4`}>
      {id !== undefined && <input type="hidden" name="id" value={id} />}
      <ErrorSummary
        answer={state}
        label={(field) => labels.fields[field as ProductField]}
        testId="product-form-error"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.filter((field) => id === undefined || field.name !== "stock").map((field) => (
          <FormField
            key={field.name}
            id={field.name}
            name={field.name}
            label={labels.fields[field.name]}
            hint={labels.hints[field.name]}
            error={errors[field.name]}
            dir={field.dir}
            defaultValue={state.values[field.name] ?? ""}
            multiline={field.multiline}
            className={field.multiline ? "sm:col-span-2" : undefined}
          />
        ))}
      </div>
      <fieldset>
        <legend className="text-sm font-medium">{labels.fields.kind}</legend>
        <div id="kind" className="mt-1 flex flex-wrap gap-4">
          {(["physical", "digital"] as const).map((kind) => (
            <Choice
              key={kind}
              type="radio"
              name="kind"
              value={kind}
              defaultChecked={(state.values.kind ?? "physical") === kind}
              label={labels.kinds[kind]}
            />
          ))}
        </div>
        {errors.kind && <p className="mt-1 text-sm text-red-700">{errors.kind}</p>}
      </fieldset>
      <Choice
        type="checkbox"
        name="visible"
        defaultChecked={state.values.visible ?? true}
        label={labels.fields.visible}
      />
      <div>
        <SubmitButton pendingLabel={labels.submitting}>{labels.submit}</SubmitButton>
      </div>
    </form>
  );
}
