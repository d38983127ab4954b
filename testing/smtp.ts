import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server for the e-mail tests (the `smtp-server` package, as mail relays run it), on 127.0.0.1, keeping
 * every message it accepted, parsed (`mailparser`). It can be told to refuse what it receives, as a relay in trouble
 * does, and stopped and started again on the same port, as a relay that goes down and comes back.
 */
export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** What it accepted, in the order it did. */
  messages: ParsedMail[];
  /**
   * From now on, answer each message with this SMTP code and text instead of accepting it (`null`: accept again).
   * 4xx is "try again later", 5xx "never".
   */
  refuse(answer: { code: number; text: string } | null): void;
  /** Milliseconds to wait before answering each message (to make senders overlap). */
  delayMs: number;
  /**
   * Holds every message to `recipient` unanswered until the returned function is called, as a relay that takes its
   * time to acknowledge: the message is received, the sender waits for the answer.
   */
  hold(recipient: string): () => void;
  /** Stops listening (connections are refused until {@link TestSmtpServer.start}). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/** Starts a {@link TestSmtpServer} on a free port. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  let refusal: { code: number; text: string } | null = null;
  let port = 0;
  const held = new Map<string, Promise<void>>();
  const handle: TestSmtpServer = {
    url: "",
    messages,
    delayMs: 0,
    refuse(answer) {
      refusal = answer;
    },
    hold(recipient) {
      let release!: () => void;
      held.set(recipient, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        held.delete(recipient);
        release();
      };
    },
    stop: async () => {},
    start: async () => {},
  };
  let server: SMTPServer;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream, session, callback) {
          simpleParser(stream).then(
            async (mail) => {
              if (handle.delayMs) await new Promise((done) => setTimeout(done, handle.delayMs));
              for (const { address } of session.envelope.rcptTo) await held.get(address);
              if (refusal) {
                const error = Object.assign(new Error(refusal.text), { responseCode: refusal.code });
                return callback(error);
              }
              messages.push(mail);
              callback(null, "Message queued");
            },
            (error: Error) => callback(error),
          );
        },
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.server.address();
        if (typeof address === "object" && address) port = address.port;
        resolve();
      });
    });
  await listen();
  handle.url = `smtp://127.0.0.1:${port}`;
  handle.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  handle.start = listen;
  return handle;
}
