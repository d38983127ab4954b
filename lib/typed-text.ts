import { z } from "zod";

/**
 * Text a person typed into a back-office form field (zod): absent is "", trimmed, at most `max` characters, and no
 * control characters — but line breaks and tabs when `multiline` (a description). The issue messages are the caller's
 * problem keys, translated by its page.
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
        .refine((value) => !(multiline ? /[^\P{Cc}\n\r\t]/u : /\p{Cc}/u).test(value), control),
    );
}
