// The mail catcher of `npm run dev` and the browser tests (started by `startMailCatcher` in scripts/servers.ts): an
// SMTP server that accepts every message to anyone and delivers none, and a web inbox to read what it caught. Built
// on what the project already has (smtp-server and mailparser, as in the e-mail tests; Hono, as in the emulator)
// rather than MailDev, whose tree (fastify, socket.io, express, an MCP server…) weighed 87 MB of every install.
//
// Its REST API is the part of MailDev's that the browser tests read (e2e/support.ts): `GET /api/email` lists the
// e-mails, oldest first, as { id, time, subject, from, to, cc, html, text, headers }; `GET /api/email/:id/html` is
// one e-mail's HTML. Each message is kept as it arrived, `<id>.eml` in its folder, so a folder that outlives the
// catcher (`npm run dev`'s .data/mail) holds the same inbox on the next start.
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Server as NetServer } from "node:net";
import path from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { simpleParser, type AddressObject, type EmailAddress, type HeaderValue, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** An address of a From, To or Cc header, groups flattened. */
export interface Mailbox {
  address: string;
  name: string;
}

/** An e-mail as the REST API gives it (the shape of MailDev's `GET /api/email`). */
export interface CaughtEmail {
  id: string;
  /** When the catcher received it (ISO 8601). */
  time: string;
  subject: string;
  from: Mailbox[];
  to: Mailbox[];
  cc: Mailbox[];
  html: string;
  text: string;
  /** Every header, by lower-case name, decoded (a repeated header's values joined with ", "). */
  headers: Record<string, string>;
}

/** A started catcher. */
export interface MailCatcher {
  /** Stops both servers; the e-mails stay in the folder. */
  close(): Promise<void>;
}

/** Ids are the time of arrival in base 36 and a random tail: they sort in order of arrival and are safe in paths. */
const ID = /^[0-9a-z]{9}[0-9a-f]{6}$/;
const newId = () => Date.now().toString(36).padStart(9, "0") + randomBytes(3).toString("hex");

const mailboxesOf = (field: AddressObject | AddressObject[] | undefined): Mailbox[] => {
  const flatten = (entry: EmailAddress): Mailbox[] =>
    entry.group ? entry.group.flatMap(flatten) : [{ address: entry.address ?? "", name: entry.name }];
  return (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.flatMap(flatten));
};

/** A parsed header as one line of text: addresses as written, dates in UTC, structured values with parameters. */
function headerText(value: HeaderValue): string {
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toUTCString();
  if (Array.isArray(value)) return (value as HeaderValue[]).map(headerText).join(", ");
  if ("text" in value && typeof value.text === "string") return value.text;
  if ("value" in value && typeof value.value === "string" && "params" in value) {
    const params = (value.params ?? {}) as Record<string, string>;
    return [value.value, ...Object.entries(params).map(([name, param]) => `${name}=${param}`)].join("; ");
  }
  return JSON.stringify(value); // the List-* headers, which mailparser combines into one object
}

function toCaughtEmail(id: string, time: Date, mail: ParsedMail): CaughtEmail {
  return {
    id,
    time: time.toISOString(),
    subject: mail.subject ?? "",
    from: mailboxesOf(mail.from),
    to: mailboxesOf(mail.to),
    cc: mailboxesOf(mail.cc),
    html: mail.html || "",
    text: mail.text ?? "",
    headers: Object.fromEntries([...mail.headers].map(([name, value]) => [name, headerText(value)])),
  };
}

/** The inbox in memory, in order of arrival, backed by one `<id>.eml` per message in `folder`. */
class Inbox {
  readonly emails: CaughtEmail[] = [];

  constructor(readonly folder: string) {}

  /** Reads the messages a previous catcher left in the folder; one that cannot be parsed is skipped. */
  async load(): Promise<void> {
    mkdirSync(this.folder, { recursive: true });
    const files = readdirSync(this.folder)
      .filter((name) => name.endsWith(".eml") && ID.test(name.slice(0, -4)))
      .sort();
    for (const name of files) {
      const file = path.join(this.folder, name);
      try {
        this.emails.push(
          toCaughtEmail(name.slice(0, -4), statSync(file).mtime, await simpleParser(readFileSync(file))),
        );
      } catch {
        // A message cut short by a crash: the rest of the inbox is still worth showing.
      }
    }
  }

  async add(raw: Buffer): Promise<void> {
    const id = newId();
    const mail = await simpleParser(raw);
    writeFileSync(path.join(this.folder, `${id}.eml`), raw);
    this.emails.push(toCaughtEmail(id, new Date(), mail));
  }

  find(id: string): CaughtEmail | undefined {
    return ID.test(id) ? this.emails.find((email) => email.id === id) : undefined;
  }

  source(id: string): Buffer {
    return readFileSync(path.join(this.folder, `${id}.eml`));
  }

  clear(): void {
    for (const { id } of this.emails.splice(0)) rmSync(path.join(this.folder, `${id}.eml`), { force: true });
  }
}

const STYLES = `
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",Tahoma,sans-serif;color:#1c1917;background:#fafaf9}
header{display:flex;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;background:#166534;color:#fff}
header a{color:#fff}
h1{font-size:1.125rem;margin:0}
main{padding:1rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{padding:.375rem .5rem;border-bottom:1px solid #e7e5e4;text-align:start;vertical-align:top}
th{font-weight:600;color:#57534e}
a{color:#166534}
dl{display:grid;grid-template-columns:auto 1fr;gap:.125rem 1rem;margin:0 0 1rem}
dt{color:#57534e}
dd{margin:0;overflow-wrap:anywhere}
nav a{margin-inline-end:1rem}
iframe{width:100%;height:75vh;border:1px solid #d6d3d1;background:#fff;margin-top:.5rem}
pre{white-space:pre-wrap;background:#fff;border:1px solid #d6d3d1;padding:1rem;margin-top:.5rem}
button{font:inherit;padding:.25rem .75rem;cursor:pointer}
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; frame-src 'self'; form-action 'self'";

const addresses = (mailboxes: Mailbox[]) =>
  mailboxes.map((mailbox) => (mailbox.name ? `${mailbox.name} <${mailbox.address}>` : mailbox.address)).join(", ");

/** A page of the inbox; `refresh` reloads it every few seconds (the list, which new e-mails join). */
const page = (title: string, body: unknown, refresh = false) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${refresh ? html`<meta http-equiv="refresh" content="5" />` : ""}
        <title>${title}</title>
        <style>
          ${raw(STYLES)}
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;

/** The web inbox (a list and one message) and the REST API. */
function inboxApp(inbox: Inbox): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    // No script runs on these pages, and an e-mail's HTML may use its own styles and show its pictures.
    c.res.headers.set("Content-Security-Policy", CSP);
    c.res.headers.set("Cache-Control", "no-store");
  });

  app.get("/", (c) => {
    const rows = [...inbox.emails].reverse().map(
      (email) =>
        html`<tr>
          <td>${new Date(email.time).toLocaleString("en-GB")}</td>
          <td>${addresses(email.from)}</td>
          <td>${addresses(email.to)}</td>
          <td dir="auto"><a href="/message/${email.id}">${email.subject || "(no subject)"}</a></td>
        </tr>`,
    );
    const count = `${inbox.emails.length} e-mail${inbox.emails.length === 1 ? "" : "s"}`;
    return c.html(
      page(
        `Mail catcher (${count})`,
        html`<header>
            <h1>Mail catcher: ${count}, newest first</h1>
            <form method="post" action="/delete-all"><button>Delete all</button></form>
          </header>
          <main>
            ${
              inbox.emails.length === 0
                ? html`<p>No e-mail yet. Everything the shop sends lands here, and goes no further.</p>`
                : html`<table>
                    <thead>
                      <tr>
                        <th>Received</th>
                        <th>From</th>
                        <th>To</th>
                        <th>Subject</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${rows}
                    </tbody>
                  </table>`
            }
          </main>`,
        true,
      ),
    );
  });

  app.get("/message/:id", (c) => {
    const email = inbox.find(c.req.param("id"));
    if (!email) return c.notFound();
    const view = c.req.query("view") === "text" ? "text" : "html";
    return c.html(
      page(
        email.subject || "(no subject)",
        html`<header><a href="/">← Inbox</a></header>
          <main>
            <h1 dir="auto">${email.subject || "(no subject)"}</h1>
            <dl>
              <dt>From</dt>
              <dd>${addresses(email.from)}</dd>
              <dt>To</dt>
              <dd>${addresses(email.to)}</dd>
              ${
                email.cc.length
                  ? html`<dt>Cc</dt>
                      <dd>${addresses(email.cc)}</dd>`
                  : ""
              }
              <dt>Received</dt>
              <dd>${new Date(email.time).toLocaleString("en-GB")}</dd>
            </dl>
            <nav>
              <a href="/message/${email.id}">HTML</a><a href="/message/${email.id}?view=text">Plain text</a
              ><a href="/api/email/${email.id}/source">Source</a>
            </nav>
            ${
              view === "text"
                ? html`<pre dir="auto">${email.text}</pre>`
                : html`<iframe sandbox title="The e-mail as HTML" src="/api/email/${email.id}/html"></iframe>`
            }
          </main>`,
      ),
    );
  });

  app.post("/delete-all", (c) => {
    inbox.clear();
    return c.redirect("/", 303);
  });

  app.get("/api/email", (c) => c.json(inbox.emails));
  app.delete("/api/email/all", (c) => {
    inbox.clear();
    return c.json(true);
  });
  app.get("/api/email/:id", (c) => {
    const email = inbox.find(c.req.param("id"));
    return email ? c.json(email) : c.json({ error: "no such e-mail" }, 404);
  });
  app.get("/api/email/:id/html", (c) => {
    const email = inbox.find(c.req.param("id"));
    if (!email) return c.notFound();
    // Shown in a sandboxed frame: the e-mail's own styles, none of its scripts.
    return c.html(email.html || html`<pre>${email.text}</pre>`);
  });
  app.get("/api/email/:id/source", (c) => {
    const email = inbox.find(c.req.param("id"));
    if (!email) return c.notFound();
    return c.body(new Uint8Array(inbox.source(email.id)), 200, { "Content-Type": "text/plain; charset=utf-8" });
  });
  return app;
}

function listen(server: NetServer, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.once("listening", () => resolve());
    server.listen(port, "127.0.0.1");
  });
}

/**
 * Starts the catcher on 127.0.0.1: SMTP on `smtpPort` (no authentication, no STARTTLS: the shop sends in clear text
 * only to this machine) and the inbox on `webPort`, keeping the e-mails in `folder` (created if needed; e-mails
 * already there are shown).
 * @throws the listening error (EADDRINUSE…) of either server; neither is left running.
 */
export async function openMailCatcher({
  smtpPort,
  webPort,
  folder,
}: {
  smtpPort: number;
  webPort: number;
  folder: string;
}): Promise<MailCatcher> {
  const inbox = new Inbox(folder);
  await inbox.load();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 25 * 1024 * 1024,
    closeTimeout: 1_000,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        inbox.add(Buffer.concat(chunks)).then(
          () => callback(null, "Caught"),
          (error: Error) => callback(error),
        );
      });
    },
  });
  const web = createAdaptorServer({ fetch: inboxApp(inbox).fetch }) as Server;
  // The tests poll the inbox on one kept-alive connection: longer than Node's default 5 s, so the server never closes
  // it just as a poll is sent (ECONNRESET), as in emulator/server.ts.
  web.keepAliveTimeout = 65_000;
  web.headersTimeout = 66_000;
  // A client that hangs up mid-conversation is its own business: without a listener, smtp-server's "error" event
  // would end the process. A port that is taken is reported by listen() below.
  smtp.on("error", () => {});
  try {
    await listen(smtp.server, smtpPort);
    await listen(web, webPort);
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(resolve));
    if (web.listening) web.close();
    throw error;
  }
  return {
    async close() {
      web.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => web.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(resolve)),
      ]);
    },
  };
}
