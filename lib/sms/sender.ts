/**
 * The seam between the SMS outbox (lib/sms/delivery.ts) and a provider: one interface, whatever the protocol. The
 * shop's adapter speaks SMPP 3.4 (lib/sms/smpp.ts); another provider's HTTP API is one more file that implements
 * {@link SmsSender} and sorts its failures into {@link SmsSendError}'s two kinds.
 */

/** One text message to hand over. */
export interface SmsMessage {
  /** A Libyan mobile, international: `+218912345678`. */
  to: string;
  /** The text; the sender adds the shop's registered sender name (SMS_SENDER_NAME). */
  text: string;
}

/** What a provider said, later, of a message it had accepted (an SMPP delivery receipt, an HTTP status callback). */
export interface SmsReport {
  /** The provider's id of the part it reports on, as {@link SmsSender.send} returned it. */
  providerId: string;
  /** The phone got it (`DELIVRD`); otherwise it never will (expired, undeliverable, rejected). */
  delivered: boolean;
  /** The provider's own word for the state, for the merchant: `DELIVRD`, `UNDELIV`, `EXPIRED`, `REJECTD`… */
  state: string;
}

/** A provider, connected. */
export interface SmsSender {
  /**
   * Hands one message to the provider, in as many parts as it takes (lib/sms/segments.ts).
   * @returns the provider's id of each part, in order: its delivery reports name them.
   * @throws SmsSendError when the provider did not accept it.
   */
  send(message: SmsMessage): Promise<string[]>;
  /** Ends the conversation: no report arrives through this sender after it. */
  close(): Promise<void>;
}

/** Opens a sender; `onReport` is called for each delivery report that arrives while it is open. */
export type OpenSmsSender = (onReport: (report: SmsReport) => Promise<void>) => Promise<SmsSender>;

/** Why a provider did not take a message, and what that means for the next attempt. */
export class SmsSendError extends Error {
  constructor(
    message: string,
    /** Refused for good (an invalid number, a sender name it will not carry): trying again would not help. */
    readonly permanent: boolean,
    /** No conversation at all (connection, TLS, bind): the next message would fail the same way now. */
    readonly unreachable: boolean,
  ) {
    super(message);
    this.name = "SmsSendError";
  }
}
