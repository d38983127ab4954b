"use client";

import { useEffect, useRef } from "react";

/**
 * The summary of problems above a refused form (`answer`, the action's state; nothing while it has no message): the
 * message, then one link per field's problem, to the field's id (`fieldId`, the field's name unless given), so a
 * keyboard or screen-reader user reaches the field from the list; each problem is named by its field's `label` when
 * given. It takes focus each time a new answer arrives, so the problem is announced and read first.
 */
export function ErrorSummary({
  answer,
  fieldId = (field) => field,
  label,
  testId,
}: {
  answer: { message?: string; fieldErrors?: Partial<Record<string, string>> };
  fieldId?: (field: string) => string;
  label?: (field: string) => string;
  testId: string;
}) {
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    summary.current?.focus();
  }, [answer]);
  if (!answer.message) return null;
  const problems = Object.entries(answer.fieldErrors ?? {}).map(([field, message]) => ({
    href: `#${fieldId(field)}`,
    text: label ? `${label(field)}: ${message}` : message,
  }));
  return (
    <div
      ref={summary}
      tabIndex={-1}
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
      data-testid={testId}
    >
      <p className="font-medium">{answer.message}</p>
      {problems.length > 0 && (
        <ul className="mt-2 list-disc ps-5 text-sm">
          {problems.map(({ href, text }) => (
            <li key={href}>
              <a href={href} className="underline">
                {text}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
