"use client";

import { useActionState, useEffect, useRef } from "react";
import { saveProductAction, type ProductFormState } from "@/app/admin/products/actions";
import type { ProductField } from "@/lib/catalog/editing";
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
  const summary = useRef<HTMLDivElement>(null);
  const errors = state.fieldErrors ?? {};
  useEffect(() => {
    if (state.message) summary.current?.focus();
  }, [state]);

  return (
    <form action={action} noValidate className={`grid gap-4 ${card} p-4`}>
      {id !== undefined && <input type="hidden" name="id" value={id} />}
      {state.message && (
        <div
          ref={summary}
          tabIndex={-1}
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
          data-testid="product-form-error"
        >
          <p className="font-medium">{state.message}</p>
          <ul className="mt-2 list-disc ps-5 text-sm">
            {Object.entries(errors).map(([field, message]) => (
              <li key={field}>
                <a href={`#${field}`} className="underline">
                  {labels.fields[field as ProductField]}: {message}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.filter((field) => id === undefined || field.name !== "stock").map((field) => {
          const error = errors[field.name];
          const hint = labels.hints[field.name];
          const describedBy =
            [hint && `${field.name}-hint`, error && `${field.name}-error`].filter(Boolean).join(" ") || undefined;
          const common = {
            id: field.name,
            name: field.name,
            dir: field.dir,
            defaultValue: state.values[field.name] ?? "",
            "aria-invalid": error ? true : undefined,
            "aria-describedby": describedBy,
            className: `mt-1 w-full rounded-lg border px-3 py-2 ${error ? "border-red-600" : "border-stone-300"}`,
          };
          return (
            <div key={field.name} className={field.multiline ? "sm:col-span-2" : undefined}>
              <label htmlFor={field.name} className="block text-sm font-medium">
                {labels.fields[field.name]}
              </label>
              {hint && (
                <p id={`${field.name}-hint`} className="text-sm text-stone-600">
                  {hint}
                </p>
              )}
              {field.multiline ? <textarea rows={4} {...common} /> : <input type="text" {...common} />}
              {error && (
                <p id={`${field.name}-error`} className="mt-1 text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
      <fieldset>
        <legend className="text-sm font-medium">{labels.fields.kind}</legend>
        <div id="kind" className="mt-1 flex flex-wrap gap-4">
          {(["physical", "digital"] as const).map((kind) => (
            <label key={kind} className="flex items-center gap-2">
              <input
                type="radio"
                name="kind"
                value={kind}
                defaultChecked={(state.values.kind ?? "physical") === kind}
                className="accent-brand-700"
              />
              {labels.kinds[kind]}
            </label>
          ))}
        </div>
        {errors.kind && <p className="mt-1 text-sm text-red-700">{errors.kind}</p>}
      </fieldset>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          name="visible"
          defaultChecked={state.values.visible ?? true}
          className="accent-brand-700"
        />
        {labels.fields.visible}
      </label>
      <div>
        <SubmitButton pendingLabel={labels.submitting}>{labels.submit}</SubmitButton>
      </div>
    </form>
  );
}
