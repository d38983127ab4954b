"use client";

import { primaryAction } from "../styles";

/** The delivery note's "Print" button: the browser's print dialog, where A5 is already chosen by the page's CSS. */
export function OrderNotePrint({ label }: { label: string }) {
  return (
    <button type="button" onClick={() => window.print()} className={primaryAction}>
      {label}
    </button>
  );
}
