import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import nodemailer, { type SendMailOptions } from "nodemailer";
import { describe, expect, it } from "vitest";
import { setUpTempFolders } from "../testing/temp-folders";
import type { CaughtEmail } from "./mail-catcher";
import { freePort, portIsFree, startMailCatcher, type RunningMailCatcher } from "./servers";

const tempFolder = setUpTempFolders();

/** Sends one e-mail to the catcher as the shop does (nodemailer over SMTP, HTML and text). */
const send = (catcher: RunningMailCatcher, message: SendMailOptions) =>
  nodemailer.createTransport(catcher.smtpUrl).sendMail({
    from: '"Medina Market" <shop@medina.example>',
    to: "customer@example.ly",
    ...message,
  });

const emailsOf = async (catcher: RunningMailCatcher) =>
  (await (await fetch(`${catcher.inboxUrl}/api/email`)).json()) as CaughtEmail[];

describe("the mail catcher of `npm run dev` and the browser tests", () => {
  it("keeps what the shop sends and gives it in MailDev's REST shape, then frees its ports", async () => {
    const [smtpPort, webPort] = [await freePort(), await freePort()];
    const catcher = await startMailCatcher({ smtpPort, webPort });
    try {
      expect(catcher).toMatchObject({
        smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
        inboxUrl: `http://127.0.0.1:${webPort}`,
      });
      await send(catcher, {
        to: '"عائشة" <aisha@example.ly>, merchant@medina.example',
        cc: "copy@example.ly",
        subject: "إيصال الطلب ord_123",
        html: '<html dir="rtl" lang="ar"><body><p>شكراً لك</p></body></html>',
        text: "شكراً لك",
        messageId: "<receipt.ord_123@medina.example>",
      });
      await send(catcher, { subject: "Second", text: "two" });

      const emails = await emailsOf(catcher);
      expect(emails.map((email) => email.subject)).toEqual(["إيصال الطلب ord_123", "Second"]); // oldest first
      const [receipt] = emails;
      expect(receipt).toMatchObject({
        from: [{ address: "shop@medina.example", name: "Medina Market" }],
        to: [
          { address: "aisha@example.ly", name: "عائشة" },
          { address: "merchant@medina.example", name: "" },
        ],
        cc: [{ address: "copy@example.ly", name: "" }],
        text: "شكراً لك",
      });
      expect(receipt!.html).toContain('<html dir="rtl" lang="ar">');
      expect(receipt!.headers).toMatchObject({
        "message-id": "<receipt.ord_123@medina.example>",
        subject: "إيصال الطلب ord_123",
        from: '"Medina Market" <shop@medina.example>',
      });
      expect(Date.parse(receipt!.time)).toBeGreaterThan(Date.now() - 60_000);

      const html = await fetch(`${catcher.inboxUrl}/api/email/${receipt!.id}/html`);
      expect(html.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await html.text()).toContain("شكراً لك");
      expect((await fetch(`${catcher.inboxUrl}/api/email/nope/html`)).status).toBe(404);
    } finally {
      await catcher.stop();
    }
    expect([await portIsFree(smtpPort), await portIsFree(webPort)]).toEqual([true, true]);
  });

  it("shows a readable inbox: the list, newest first, and one message, in either language, escaped", async () => {
    const catcher = await startMailCatcher();
    try {
      await send(catcher, { subject: "Receipt <script>alert(1)</script>", text: "hello" });
      await send(catcher, { subject: "طلب مدفوع جديد", html: "<p>مرحبا</p>" });
      const [first, second] = await emailsOf(catcher);

      const list = await (await fetch(catcher.inboxUrl)).text();
      expect(list).toMatch(/^<!doctype html>/);
      expect(list).toContain("2 e-mails");
      expect(list.indexOf("طلب مدفوع جديد")).toBeLessThan(list.indexOf("Receipt &lt;script&gt;"));
      expect(list).not.toContain("<script>");
      expect(list).toContain(`href="/message/${first!.id}"`);

      const message = await fetch(`${catcher.inboxUrl}/message/${second!.id}`);
      expect(message.headers.get("content-security-policy")).toContain("default-src 'none'");
      const page = await message.text();
      expect(page).toContain('<h1 dir="auto">طلب مدفوع جديد</h1>');
      expect(page).toContain(`<iframe sandbox title="The e-mail as HTML" src="/api/email/${second!.id}/html">`);
      const text = await (await fetch(`${catcher.inboxUrl}/message/${first!.id}?view=text`)).text();
      expect(text).toContain('<pre dir="auto">hello');
      expect(await (await fetch(`${catcher.inboxUrl}/api/email/${first!.id}/source`)).text()).toContain("Subject: ");
    } finally {
      await catcher.stop();
    }
  });

  it("keeps the inbox in a folder across restarts (`npm run dev`), and empties it on request", async () => {
    const folder = path.join(tempFolder("shop-mail-test-"), "mail");
    const first = await startMailCatcher({ folder });
    await send(first, { subject: "Before the restart", text: "kept" });
    await first.stop();
    expect(readdirSync(folder).filter((name) => name.endsWith(".eml"))).toHaveLength(1);

    const second = await startMailCatcher({ folder });
    try {
      expect((await emailsOf(second)).map((email) => email.subject)).toEqual(["Before the restart"]);
      await send(second, { subject: "After", text: "new" });
      expect((await emailsOf(second)).map((email) => email.subject)).toEqual(["Before the restart", "After"]);
      const cleared = await fetch(`${second.inboxUrl}/delete-all`, { method: "POST", redirect: "manual" });
      expect(cleared.status).toBe(303);
      expect(await emailsOf(second)).toEqual([]);
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      await second.stop();
    }
    expect(existsSync(folder)).toBe(true);
  });

  it("removes a throwaway inbox when stopped", async () => {
    const catcher = await startMailCatcher();
    expect(existsSync(catcher.folder)).toBe(true);
    await catcher.stop();
    expect(existsSync(catcher.folder)).toBe(false);
  });

  it("says which port is taken", async () => {
    const blocker = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => blocker.once("listening", resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      await expect(startMailCatcher({ smtpPort: taken })).rejects.toThrow(
        `port ${taken} (for the mail catcher's SMTP server) is in use`,
      );
    } finally {
      blocker.close();
    }
  });
});
