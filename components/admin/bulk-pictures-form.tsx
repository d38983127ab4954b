"use client";

import { useActionState } from "react";
import { addPicturesAction, type BulkPicturesState } from "@/app/admin/products/pictures/actions";
import { card, fileInput } from "../styles";
import { SubmitButton } from "../submit-button";
import { Notice } from "./section";
import { columnsOf, Table } from "./table";

/** The bulk picture form's texts, in the admin's language (the page translates them). */
export interface BulkPicturesLabels {
  file: string;
  upload: string;
  uploading: string;
  help: string;
  resultsTitle: string;
  caption: string;
  fileColumn: string;
  resultColumn: string;
}

/**
 * Many pictures at once, posted to `addPicturesAction`, each matched to its product by file name; after the upload,
 * a summary and what happened to each file. `describedBy` is the id of the text that explains the matching and the
 * limits. Works without JavaScript.
 */
export function BulkPicturesForm({ labels, describedBy }: { labels: BulkPicturesLabels; describedBy: string }) {
  const [state, action] = useActionState(addPicturesAction, { rows: [] } as BulkPicturesState);
  return (
    <div className="space-y-4">
      <form action={action} className={`grid gap-4 ${card} p-4`} aria-describedby={describedBy}>
        <label className="grid gap-1 text-sm font-medium">
          {labels.file}
          <input
            type="file"
            name="pictures"
            multiple
            required
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            className={`${fileInput} font-normal`}
          />
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pendingLabel={labels.uploading}>{labels.upload}</SubmitButton>
          <p className="text-sm text-stone-600">{labels.help}</p>
        </div>
      </form>
      {state.message && (
        <Notice
          tone={state.done ? "saved" : "error"}
          role={state.done ? "status" : "alert"}
          testId="bulk-pictures-message"
        >
          {state.message}
        </Notice>
      )}
      {state.rows.length > 0 && (
        <section aria-labelledby="bulk-results">
          <h2 id="bulk-results" className="font-semibold">
            {labels.resultsTitle}
          </h2>
          <Table
            region={{ labelledBy: "bulk-results" }}
            caption={labels.caption}
            cell="py-1 pe-3"
            columns={columnsOf(["file", "result"] as const, (key) =>
              key === "file" ? labels.fileColumn : labels.resultColumn,
            )}
          >
            {state.rows.map((row, index) => (
              <tr key={index} data-testid="bulk-pictures-row" className="align-top">
                <td className="py-1 pe-3">
                  {/* Isolated: a Latin file name keeps its own direction in an Arabic page, and its cell's alignment. */}
                  <bdi>{row.file}</bdi>
                </td>
                <td className={`py-1 ${row.added ? "text-green-900" : "text-red-900"}`}>{row.text}</td>
              </tr>
            ))}
          </Table>
        </section>
      )}
    </div>
  );
}
