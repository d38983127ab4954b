"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * The summary of problems above a refused form: the message, then one link per field's problem (`href` is `#` and
 * the field's id) so a keyboard or screen-reader user reaches the field from the list. It takes focus each time a new
 * answer (`answer`, the action's state) arrives, so the problem is announced and read first.
 */
export function ErrorSummary({
  message,
  problems,
  answer,
  testId,
}: {
  message: string;
  problems: { href: string; text: ReactNode }[];
  answer: unknown;
  testId: string;
}) {
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    summary.current?.focus();
  }, [answer]);
  return (
    <div
      ref={summary}
      tabIndex={-1}
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
      data-testid={testId}
    >
      <p className="font-medium">{message}</p>
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
