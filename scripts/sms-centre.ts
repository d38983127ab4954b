// The local SMS centre of `npm run dev` and the tests, beside the mail catcher (scripts/mail-catcher.ts): an SMPP 3.4
// server (the `smpp` package's, the library the shop's sender uses) that accepts any bind, keeps every message the
// shop submits — the parts of a long one joined again — and answers each part with a delivery receipt, as a real
// centre does once the phone has it; and a web inbox over Hono to read them, Arabic right to left and Latin left to
// right (each text `dir="auto"`). Nothing leaves the machine.
//
// Its REST API, for tests: `GET /api/sms` lists the messages, oldest first, as { id, time, systemId, from, to, text,
// parts, encoding }; `DELETE /api/sms/all` empties the inbox. Each message is kept as `<id>.json` in its folder, so a
// folder that outlives the centre (`npm run dev`'s .data/sms) holds the same inbox on the next start.
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Server as NetServer } from "node:net";
import path from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { html } from "hono/html";
import * as smpp from "smpp";

/** A message as the REST API gives it. */
export interface CaughtSms {
  id: string;
  /** When its last part arrived (ISO 8601). */
  time: string;
  /** The account that bound (the shop's SMPP_SYSTEM_ID). */
  systemId: string;
  /** The sender name, and the number it went to (international, without +). */
  from: string;
  to: string;
  text: string;
  parts: number;
  encoding: "GSM-7" | "UCS-2";
}

/** A started centre. */
export interface SmsCentre {
  smppUrl: string;
  inboxUrl: string;
  /** Stops both servers (ending every SMPP session); the messages stay in the folder. */
  close(): Promise<void>;
}

const ID = /^[0-9a-z]{9}[0-9a-f]{6}$/;
const newId = () => Date.now().toString(36).padStart(9, "0") + randomBytes(3).toString("hex");

/** The inbox in memory, in order of arrival, backed by one `<id>.json` per message in `folder`. */
class Inbox {
  readonly messages: CaughtSms[] = [];

  constructor(readonly folder: string) {
    mkdirSync(folder, { recursive: true });
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith(".json") || !ID.test(name.slice(0, -5))) continue;
      try {
        this.messages.push(JSON.parse(readFileSync(path.join(folder, name), "utf8")) as CaughtSms);
      } catch {
        // A file cut short by a crash: the rest of the inbox is still worth showing.
      }
    }
  }

  add(message: Omit<CaughtSms, "id" | "time">): void {
    const caught = { id: newId(), time: new Date().toISOString(), ...message };
    writeFileSync(path.join(this.folder, `${caught.id}.json`), JSON.stringify(caught));
    this.messages.push(caught);
  }

  clear(): void {
    for (const { id } of this.messages.splice(0)) rmSync(path.join(this.folder, `${id}.json`), { force: true });
  }
}

/** A receipt's dates: `YYMMDDhhmm` (SMPP 3.4 Appendix B). */
const receiptDate = (date: Date) => date.toISOString().replace(/\D/g, "").slice(2, 12);

/** The text of a part as submitted, whatever form the library decoded it into. */
function partOf(pdu: smpp.PDU): { text: string; concat?: { reference: number; total: number; index: number } } {
  const field = pdu.short_message as { message?: unknown; udh?: Buffer[] } | string | Buffer | undefined;
  const payload = pdu.message_payload as { message?: unknown } | string | undefined;
  const message = typeof field === "object" && field && !Buffer.isBuffer(field) ? field : { message: field };
  let text = message.message ?? (typeof payload === "object" ? payload?.message : payload) ?? "";
  if (Buffer.isBuffer(text)) text = text.toString("latin1");
  // The 8-bit concatenation header (IE 0x00): reference, parts, this part's number.
  const header = message.udh?.find((element) => element[0] === 0x00 && element.length >= 5);
  return {
    text: String(text),
    ...(header ? { concat: { reference: header[2]!, total: header[3]!, index: header[4]! } } : {}),
  };
}

/** Serves one SMPP session: binds of any kind, submit_sm kept (parts joined), a receipt for each part. */
function serve(session: smpp.Session, inbox: Inbox): void {
  let systemId = "";
  const waiting = new Map<string, string[]>();
  session.on("error", () => {}); // a client that hangs up is its own business
  for (const bind of ["bind_transceiver", "bind_transmitter", "bind_receiver"])
    session.on(bind, (pdu: smpp.PDU) => {
      systemId = String(pdu.system_id ?? "");
      session.send(pdu.response({ system_id: "sms-centre" }));
    });
  session.on("enquire_link", (pdu: smpp.PDU) => session.send(pdu.response()));
  session.on("unbind", (pdu: smpp.PDU) => {
    session.send(pdu.response());
    session.close();
  });
  session.on("submit_sm", (pdu: smpp.PDU) => {
    const messageId = randomBytes(8).toString("hex");
    session.send(pdu.response({ message_id: messageId }));
    const from = String(pdu.source_addr ?? "");
    const to = String(pdu.destination_addr ?? "");
    const encoding = pdu.data_coding === 8 ? "UCS-2" : "GSM-7";
    const { text, concat } = partOf(pdu);
    if (!concat || concat.total <= 1) inbox.add({ systemId, from, to, text, parts: 1, encoding });
    else {
      const key = `${from}>${to}#${concat.reference}`;
      const parts = waiting.get(key) ?? Array.from<string>({ length: concat.total });
      parts[concat.index - 1] = text;
      waiting.set(key, parts);
      if (parts.every((part) => part !== undefined)) {
        waiting.delete(key);
        inbox.add({ systemId, from, to, text: parts.join(""), parts: concat.total, encoding });
      }
    }
    if (Number(pdu.registered_delivery) & 0x01) {
      const now = receiptDate(new Date());
      session.deliver_sm({
        source_addr: to,
        destination_addr: from,
        esm_class: 0x04,
        short_message: `id:${messageId} sub:001 dlvrd:001 submit date:${now} done date:${now} stat:DELIVRD err:000 text:`,
        receipted_message_id: messageId,
        message_state: 2,
      });
    }
  });
}

const STYLES = `
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",Tahoma,sans-serif;color:#1c1917;background:#fafaf9}
header{display:flex;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;background:#166534;color:#fff}
h1{font-size:1.125rem;margin:0}
main{padding:1rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{padding:.375rem .5rem;border-bottom:1px solid #e7e5e4;text-align:start;vertical-align:top}
th{font-weight:600;color:#57534e}
td.text{white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:plaintext}
button{font:inherit;padding:.25rem .75rem;cursor:pointer}
`;

/** The web inbox and the REST API. */
function inboxApp(inbox: Inbox): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    c.res.headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    c.res.headers.set("Cache-Control", "no-store");
  });
  app.get("/", (c) => {
    const count = `${inbox.messages.length} message${inbox.messages.length === 1 ? "" : "s"}`;
    const rows = [...inbox.messages].reverse().map(
      (sms) =>
        html`<tr>
          <td>${new Date(sms.time).toLocaleString("en-GB")}</td>
          <td>${sms.from}</td>
          <td>+${sms.to}</td>
          <td class="text" dir="auto">${sms.text}</td>
          <td>${sms.parts} × ${sms.encoding}</td>
        </tr>`,
    );
    return c.html(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta http-equiv="refresh" content="5" />
            <title>SMS centre (${count})</title>
            <style>
              ${STYLES}
            </style>
          </head>
          <body>
            <header>
              <h1>SMS centre: ${count}, newest first</h1>
              <form method="post" action="/delete-all"><button>Delete all</button></form>
            </header>
            <main>
              ${
                inbox.messages.length === 0
                  ? html`<p>No message yet. Every text message the shop sends lands here, and goes no further.</p>`
                  : html`<table>
                      <thead>
                        <tr>
                          <th>Received</th>
                          <th>From</th>
                          <th>To</th>
                          <th>Text</th>
                          <th>Parts</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${rows}
                      </tbody>
                    </table>`
              }
            </main>
          </body>
        </html>`,
    );
  });
  app.post("/delete-all", (c) => {
    inbox.clear();
    return c.redirect("/", 303);
  });
  app.get("/api/sms", (c) => c.json(inbox.messages));
  app.delete("/api/sms/all", (c) => {
    inbox.clear();
    return c.json(true);
  });
  return app;
}

function listen(server: NetServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.once("listening", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
    server.listen(port, "127.0.0.1");
  });
}

/**
 * Starts the centre on 127.0.0.1: SMPP on `smppPort` (plain: the shop talks to it only on this machine; any system id
 * and password bind) and the inbox on `webPort` (0 for any free port, either), keeping the messages in `folder`.
 * @throws the listening error (EADDRINUSE…) of either server; neither is left running.
 */
export async function openSmsCentre({
  smppPort,
  webPort,
  folder,
}: {
  smppPort: number;
  webPort: number;
  folder: string;
}): Promise<SmsCentre> {
  const inbox = new Inbox(folder);
  const centre = smpp.createServer({}, (session) => serve(session, inbox));
  centre.on("error", () => {});
  const web = createAdaptorServer({ fetch: inboxApp(inbox).fetch }) as Server;
  web.keepAliveTimeout = 65_000;
  web.headersTimeout = 66_000;
  let ports: [number, number];
  try {
    ports = [await listen(centre, smppPort), await listen(web, webPort)];
  } catch (error) {
    if (centre.listening) centre.close();
    if (web.listening) web.close();
    throw error;
  }
  return {
    smppUrl: `smpp://127.0.0.1:${ports[0]}`,
    inboxUrl: `http://127.0.0.1:${ports[1]}`,
    async close() {
      for (const session of centre.sessions) session.destroy();
      web.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => centre.close(() => resolve())),
        new Promise<void>((resolve) => web.close(() => resolve())),
      ]);
    },
  };
}
