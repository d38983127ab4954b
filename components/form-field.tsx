import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

/** What a field's input takes besides its id: its name, type, value, direction, autocomplete and limits. */
type InputProps = Omit<InputHTMLAttributes<HTMLInputElement> & TextareaHTMLAttributes<HTMLTextAreaElement>, "id">;

/**
 * One labelled text field of a form: the label, a hint under it, the input (or a 4-row textarea with `multiline`) and
 * the field's error. The hint and the error are tied to the input (`aria-describedby`, ids `<id>-hint` and
 * `<id>-error`), and an error marks it invalid, so a screen reader reads them with the field. `marker` is a quieter
 * word after the label ("optional", "required"); `className` is the wrapper's (a grid cell's span). The rest goes to
 * the input as it is (`name`, `type`, `defaultValue`, `dir`, `autoComplete`, `required`…).
 */
export function FormField({
  id,
  label,
  marker,
  hint,
  error,
  multiline,
  className,
  ...input
}: InputProps & {
  id: string;
  label: ReactNode;
  marker?: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  multiline?: boolean;
  className?: string;
}) {
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const control = {
    ...input,
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    className: `mt-1 w-full rounded-lg border px-3 py-2 text-start ${error ? "border-red-600" : "border-stone-300"}`,
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label} {marker && <span className="font-normal text-stone-600">{marker}</span>}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      )}
      {multiline ? <textarea rows={4} {...control} /> : <input type="text" {...control} />}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A checkbox or a radio button with its label beside it, in the brand's colour. */
export function Choice({
  label,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "className"> & { type: "checkbox" | "radio"; label: ReactNode }) {
  return (
    <label className="flex items-center gap-2">
      <input {...input} className="accent-brand-700" />
      {label}
    </label>
  );
}
