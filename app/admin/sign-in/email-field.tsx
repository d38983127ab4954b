import { FormField } from "@/components/form-field";

/** The admin's e-mail address, as both sign-in forms ask for it (the password form and the one-time link's). */
export function EmailField({ label }: { label: string }) {
  return <FormField id="email" name="email" type="email" autoComplete="username" required dir="ltr" label={label} />;
}
