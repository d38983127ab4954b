import { describe, expect, it } from "vitest";
import { createMailTransport } from "./settings";

const options = (smtpUrl: string) =>
  (createMailTransport({ smtpUrl }).transporter as unknown as { options: Record<string, unknown> }).options;

describe("the SMTP connection", () => {
  it("insists on TLS to any host but this machine, and reads URL-encoded credentials", () => {
    expect(options("smtp://apikey:p%40ss%2Fword@smtp.example.com:587")).toMatchObject({
      host: "smtp.example.com",
      port: 587,
      secure: false,
      requireTLS: true,
      auth: { user: "apikey", pass: "p@ss/word" },
    });
    expect(options("smtps://u:p@smtp.example.com")).toMatchObject({ port: 465, secure: true, requireTLS: false });
    // The development catcher on this machine speaks plain SMTP.
    expect(options("smtp://127.0.0.1:4025")).toMatchObject({ port: 4025, requireTLS: false });
    expect(options("smtp://127.0.0.1:4025")).not.toHaveProperty("auth");
  });

  it("waits for a relay's answers as long as SMTP lets a relay take: 5 minutes to greet, 10 for the end of a message", () => {
    // RFC 5321, "Timeouts". A sender that gave up after 10 s sent a relay that answered after 25 s three copies.
    expect(options("smtp://smtp.example.com")).toMatchObject({
      connectionTimeout: 60_000,
      greetingTimeout: 5 * 60_000,
      socketTimeout: 10 * 60_000,
    });
  });
});
