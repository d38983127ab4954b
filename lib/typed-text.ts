import { z } from "zod";

/**
 * The rules for text people type, in one place: the back office's fields ({@link typedText}) and the checkout's
 * (lib/checkout/form.ts) use them.
 */

/**
 * Whether a text holds something mail clients turn into a link: a scheme (`https:`), `www.`, `//`, or a host name
 * (`evil.example`: two letters or more on each side of a dot). Initials such as "J.R. Smith" and "St. 5" are not.
 */
export function looksLikeWebAddress(text: string): boolean {
  return /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\/\/|[\p{L}\p{N}-]{2,}\.\p{L}{2,}/iu.test(text);
}

/**
 * Whether a text holds an invisible character that reorders the text around it: the embeddings and overrides
 * (U+202A–U+202E) and isolates (U+2066–U+2069). With one, `gpj.exe` shows as `exe.jpg` and an address or a link reads
 * other than it is. The marks U+200E, U+200F and U+061C are allowed: they only set the direction of the punctuation next
 * to them, and Arabic keyboards type them in mixed Arabic and Latin text.
 */
export function hasDirectionControl(text: string): boolean {
  return /[\u202A-\u202E\u2066-\u2069]/u.test(text);
}

/**
 * Text a person typed into a back-office form field (zod): absent is "", trimmed, at most `max` characters, and no
 * control characters (direction controls included, {@link hasDirectionControl}) — but line breaks and tabs when
 * `multiline` (a description). The issue messages are the caller's problem keys, translated by its page.
 */
export function typedText<Problem extends string>(
  max: number,
  { tooLong, control }: { tooLong: Problem; control: Problem },
  { multiline = false } = {},
) {
  return z
    .string()
    .default("")
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .max(max, tooLong)
        .refine(
          (value) => !(multiline ? /[^\P{Cc}\n\r\t]/u : /\p{Cc}/u).test(value) && !hasDirectionControl(value),
          control,
        ),
    );
}
