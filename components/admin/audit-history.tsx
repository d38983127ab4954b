import { getFormatter, getTranslations } from "next-intl/server";
import { Section } from "./section";
import { columnsOf, Table } from "./table";

/** One change of an audit, as its history lists it: when, by whom, and what changed, one line each. */
export interface AuditLine {
  id: number;
  at: Date;
  by: string;
  what: string[];
}

/**
 * A back-office section of an audit's changes (the cash settings, a promo code), in the order given: a table of when,
 * who and what, under its heading. `namespace` holds the section's words (`title`, `caption`, `when`, `who`, `what`,
 * `empty`); `id` names the section for its heading and the table's region, and is the table's test id.
 */
export async function AuditHistory({
  id,
  events,
  namespace,
}: {
  id: string;
  events: readonly AuditLine[];
  namespace: "admin.cash.history" | "admin.promo.history";
}) {
  const [format, t] = await Promise.all([getFormatter(), getTranslations(namespace)]);
  return (
    <Section id={id} title={t("title")} tone="bare" large>
      <Table
        region={{ labelledBy: id }}
        caption={t("caption")}
        minWidth="min-w-[20rem]"
        columns={columnsOf(["when", "who", "what"] as const, (key) => t(key))}
        empty={events.length === 0 && t("empty")}
        testId={id}
      >
        {events.map((event) => (
          <tr key={event.id} className="align-top">
            <td className="px-1 py-1 whitespace-nowrap">
              <time dateTime={event.at.toISOString()}>
                {format.dateTime(event.at, { dateStyle: "medium", timeStyle: "short" })}
              </time>
            </td>
            <td className="px-1 py-1">
              <bdi>{event.by}</bdi>
            </td>
            <td className="px-1 py-1">
              <ul>
                {event.what.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}
