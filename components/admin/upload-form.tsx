import { SubmitButton } from "../submit-button";
import { card, fileInput } from "../styles";
import { PageHeader } from "./page-header";
import { Notice } from "./section";
import { Table } from "./table";

/** What a text file of rows may be named and typed as (CSV, tab-separated, plain text). */
const TEXT_FILES = ".csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values";

/**
 * The upload of a text file that the next page checks before anything is applied (the catalogue's import, a payment
 * list to reconcile): the fields before the file (`children`, such as a box to paste into), the file, the button
 * that sends it with a line of help beside it. `formatId` is the id of the explanation of the file's format
 * ({@link FileFormat}) that describes the form.
 */
export function UploadForm({
  action,
  formatId,
  fileLabel,
  required = false,
  submit,
  pending,
  help,
  children,
}: {
  action: (form: FormData) => Promise<void>;
  formatId: string;
  fileLabel: string;
  required?: boolean;
  submit: string;
  pending: string;
  help: string;
  children?: React.ReactNode;
}) {
  return (
    <form action={action} className={`grid gap-4 ${card} p-4`} aria-describedby={formatId}>
      {children}
      <label className="grid gap-1 text-sm font-medium">
        {fileLabel}
        <input type="file" name="file" required={required} accept={TEXT_FILES} className={`${fileInput} font-normal`} />
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pendingLabel={pending}>{submit}</SubmitButton>
        <p className="text-sm text-stone-600">{help}</p>
      </div>
    </form>
  );
}

/**
 * What an uploaded file must look like, under its title: `children` (paragraphs, the table of columns) form the
 * description the upload form points to (`id`); `example` follows it.
 */
export function FileFormat({
  id,
  title,
  example,
  children,
}: {
  id: string;
  title: string;
  example?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="max-w-3xl text-sm text-stone-700">
      <h2 id={`${id}-title`} className="font-semibold text-stone-900">
        {title}
      </h2>
      <div id={id}>{children}</div>
      {example && (
        <pre dir="ltr" className="mt-2 overflow-x-auto rounded-lg bg-stone-100 p-3 font-mono text-xs">
          {example}
        </pre>
      )}
    </section>
  );
}

/**
 * The columns a file may have, as a table in its {@link FileFormat}: each column's `name` (code, or the names it goes
 * by), then what it holds (`meaning`). `headings` are the two columns' headings.
 */
export function FormatColumns({
  caption,
  headings,
  rows,
}: {
  caption: string;
  headings: [string, string];
  rows: { key: string; name: React.ReactNode; meaning: React.ReactNode }[];
}) {
  return (
    <Table
      className="mt-2"
      caption={caption}
      cell="py-1 pe-3"
      columns={[
        { key: "name", label: headings[0] },
        { key: "meaning", label: headings[1] },
      ]}
    >
      {rows.map((row) => (
        <tr key={row.key}>
          <th scope="row" className="py-1 pe-3 text-start align-top font-normal">
            {row.name}
          </th>
          <td className="py-1">{row.meaning}</td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * A page that takes a file to check before anything is applied (the catalogue's import, a payment list): its title,
 * what it is for (`intro`), `more` beside it (a link), what was wrong with the last upload (`error`, announced), then
 * `children` (the form, the file's format, the recent uploads).
 */
export function UploadPage({
  title,
  intro,
  more,
  error,
  children,
}: {
  title: string;
  intro: string;
  more?: React.ReactNode;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <section className="space-y-6">
      <PageHeader title={title} />
      <p className="max-w-3xl">{intro}</p>
      {more}
      {error && (
        <Notice tone="warning" role="alert">
          {error}
        </Notice>
      )}
      {children}
    </section>
  );
}
