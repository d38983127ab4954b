import { z } from "zod";

/**
 * The back office's sign-in forms as the server reads them (app/admin/actions.ts). Each bad field has its own answer
 * on the page (`?error=…`), none of which says whether an account exists. An e-mail reaches the database (the
 * sign-in limits are keyed by it), so anything that is not an address is refused here, before it can: a NUL, which
 * PostgreSQL cannot store (the sign-in answered a bare 500), or any other control character, a lone surrogate, a
 * space. Accounts are created with the same rule (scripts/admin.ts), so no account is refused by it.
 */

/** Why a sign-in form was refused, as the page's `?error=` names it (texts: `admin.signIn.*` in lib/i18n/messages). */
export type SignInFormError = "missing" | "notAnEmail";

/** An e-mail as typed: present (`missing`), then an address of at most 254 characters (`notAnEmail`), trimmed. */
const emailField = z
  .string("missing")
  .trim()
  .min(1, "missing")
  .pipe(z.string().max(254, "notAnEmail").pipe(z.email("notAnEmail")));

/** The first field's reason (each issue's message is one of {@link SignInFormError}). */
const reason = (error: z.ZodError): SignInFormError =>
  error.issues[0]?.message === "notAnEmail" ? "notAnEmail" : "missing";

const credentialsSchema = z.object({
  email: emailField,
  password: z.string("missing").min(1, "missing").max(1_000, "missing"),
});

/**
 * The password form: fields `email` and `password`.
 * @returns the e-mail (trimmed) and password, or why the form was refused.
 */
export function parseCredentials(
  form: FormData,
): { ok: true; email: string; password: string } | { ok: false; error: SignInFormError } {
  const parsed = credentialsSchema.safeParse({ email: form.get("email"), password: form.get("password") });
  return parsed.success ? { ok: true, ...parsed.data } : { ok: false, error: reason(parsed.error) };
}

/**
 * The form that asks for a sign-in link: field `email`.
 * @returns the e-mail (trimmed), or why the form was refused.
 */
export function parseLinkRequest(form: FormData): { ok: true; email: string } | { ok: false; error: SignInFormError } {
  const parsed = z.object({ email: emailField }).safeParse({ email: form.get("email") });
  return parsed.success ? { ok: true, ...parsed.data } : { ok: false, error: reason(parsed.error) };
}

/** A sign-in link's token as e-mailed: 32 random bytes in base64url (lib/admin/sign-in-links.ts). */
export const linkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
