import "server-only";
import { randomInt } from "node:crypto";
import * as smpp from "smpp";
import type { SmsSettings } from "../env";
import { segmentSms } from "./segments";
import { SmsSendError, type OpenSmsSender, type SmsReport, type SmsSender } from "./sender";

/**
 * The SMPP 3.4 adapter of the sender seam (lib/sms/sender.ts), over the `smpp` package (farhadi/node-smpp): binds as a
 * transceiver to SMPP_URL with SMPP_SYSTEM_ID and SMPP_PASSWORD, sends each message as one `submit_sm` per part
 * (GSM-7 as the centre's default alphabet, `data_coding` 0; anything else UCS-2, 8; a longer one in parts joined by
 * an 8-bit concatenation header), asks for a delivery receipt for each, and hands every receipt the centre sends
 * while bound (a `deliver_sm` whose `esm_class` says so) to `onReport`. A centre keeps receipts for a transceiver
 * that is not bound and delivers them at the next bind.
 */

/** How long the connection and the bind may take, and then each part's answer. */
const CONNECT_TIMEOUT_MS = 10_000;
const ANSWER_TIMEOUT_MS = 30_000;

/** `esm_class` bits: a delivery receipt, in SMPP 3.4's words an "SMSC Delivery Receipt". */
const ESM_DELIVERY_RECEIPT = 0x04;

/**
 * The command statuses by name. The package sets `errors` on its CommonJS exports in a way Node's own ES module loader
 * does not list as a named export (a script run by tsx: `npm run doctor`), while bundlers do: read it either way.
 */
const errors: Record<string, number> =
  smpp.errors ?? (smpp as unknown as { default: { errors: Record<string, number> } }).default.errors;

/** Answers that say the message itself is wrong: sending it again would fail the same way. */
const PERMANENT = new Set(
  ["ESME_RINVDSTADR", "ESME_RINVSRCADR", "ESME_RINVMSGLEN", "ESME_RINVDCS", "ESME_RINVESMCLASS", "ESME_RX_P_APPN"].map(
    (name) => errors[name],
  ),
);
const statusName = (status: number) =>
  Object.entries(errors).find(([, value]) => value === status)?.[0] ?? `0x${status.toString(16)}`;

/**
 * What a receipt says: the id of the message it reports on and its final state, from the `receipted_message_id` and
 * `message_state` TLVs when the centre sends them, else from the receipt's text (`id:… stat:DELIVRD …`, SMPP 3.4
 * Appendix B).
 */
export function readReceipt(pdu: Record<string, unknown>): SmsReport | null {
  const message = pdu.short_message as { message?: unknown } | string | undefined;
  const text = typeof message === "string" ? message : String(message?.message ?? "");
  const providerId =
    typeof pdu.receipted_message_id === "string" ? pdu.receipted_message_id : text.match(/\bid:(\S+)/)?.[1];
  const state = text.match(/\bstat:(\w+)/)?.[1] ?? MESSAGE_STATES[Number(pdu.message_state)];
  if (!providerId || !state) return null;
  return { providerId, delivered: state === "DELIVRD", state };
}
/** SMPP 3.4's `message_state` values, by the receipt's words for them. */
const MESSAGE_STATES: Record<number, string> = {
  2: "DELIVRD",
  3: "EXPIRED",
  4: "DELETED",
  5: "UNDELIV",
  6: "ACCEPTD",
  7: "UNKNOWN",
  8: "REJECTD",
};

/** An SMPP session with one request's answer as a promise, within {@link ANSWER_TIMEOUT_MS}. */
function ask(
  session: smpp.Session,
  command: "bind_transceiver" | "bind_transmitter" | "submit_sm",
  options: Record<string, unknown>,
) {
  return new Promise<smpp.PDU>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new SmsSendError(`${command}: no answer in ${ANSWER_TIMEOUT_MS / 1000} s`, false, true)),
      ANSWER_TIMEOUT_MS,
    );
    const sent = session[command](options, (pdu) => {
      clearTimeout(timer);
      resolve(pdu);
    });
    if (!sent) {
      clearTimeout(timer);
      reject(new SmsSendError(`${command}: the connection is closed`, false, true));
    }
  });
}

/**
 * Connects to the SMS centre of `settings` and binds as `bind` with the shop's account.
 * @returns the bound session, and `broken()`: why it has ended since, if it has.
 * @throws SmsSendError (unreachable) when the centre cannot be reached or refuses the bind.
 */
async function connectAndBind(
  settings: Pick<SmsSettings, "smppUrl" | "systemId" | "password">,
  bind: "bind_transceiver" | "bind_transmitter",
) {
  const session = smpp.connect({ url: settings.smppUrl, auto_enquire_link_period: 30_000 });
  let broken: string | null = null;
  session.on("error", (error: Error) => void (broken = error.message));
  session.on("close", () => void (broken ??= "the SMS centre closed the connection"));
  const tls = settings.smppUrl.startsWith("ssmpp:");
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no connection in ${CONNECT_TIMEOUT_MS / 1000} s`)),
        CONNECT_TIMEOUT_MS,
      );
      session.once(tls ? "secureConnect" : "connect", () => (clearTimeout(timer), resolve()));
      session.once("error", (error: Error) => (clearTimeout(timer), reject(error)));
    });
    const bound = await ask(session, bind, {
      system_id: settings.systemId,
      password: settings.password,
      interface_version: 0x34,
    });
    if (bound.command_status !== 0) throw new Error(`bind refused: ${statusName(bound.command_status)}`);
  } catch (error) {
    session.destroy();
    throw new SmsSendError(`SMPP ${settings.smppUrl}: ${(error as Error).message}`, false, true);
  }
  return { session, broken: () => broken };
}

/** Unbinds and closes a session, or drops it after 2 s. */
function unbind(session: smpp.Session): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => session.destroy(() => resolve()), 2_000);
    session.unbind({}, () => session.close(() => (clearTimeout(timer), resolve())));
  });
}

/**
 * Binds to the SMS centre of `settings` as a transmitter and unbinds: whether the shop's account is taken, for
 * `npm run doctor`. A transmitter is sent no delivery receipts, so none meant for the shop's sender is taken.
 * @throws SmsSendError (unreachable) when the centre cannot be reached or refuses the bind.
 */
export async function checkSmppBind(settings: Pick<SmsSettings, "smppUrl" | "systemId" | "password">): Promise<void> {
  await unbind((await connectAndBind(settings, "bind_transmitter")).session);
}

/**
 * Connects and binds to the SMS centre of `settings` as a transceiver.
 * @returns an open sender for {@link SmsSender.send}; close it when done.
 * @throws SmsSendError (unreachable) when the centre cannot be reached or refuses the bind.
 */
export function smppSender(settings: SmsSettings): OpenSmsSender {
  return async (onReport) => {
    const { session, broken } = await connectAndBind(settings, "bind_transceiver");
    session.on("deliver_sm", (pdu: smpp.PDU) => {
      session.send(pdu.response());
      const report = (Number(pdu.esm_class) & ESM_DELIVERY_RECEIPT) !== 0 ? readReceipt(pdu) : null;
      if (report) void onReport(report).catch(() => {}); // recorded by the caller, who logs its own failures
    });

    // A sender name of letters is alphanumeric (TON 5); digits are an international number (TON 1, NPI 1).
    const alphanumeric = !/^\+?\d+$/.test(settings.senderName);
    const sender: SmsSender = {
      async send({ to, text }) {
        const ended = broken();
        if (ended) throw new SmsSendError(`SMPP: ${ended}`, false, true);
        const { encoding, texts } = segmentSms(text);
        const reference = randomInt(256);
        const ids: string[] = [];
        for (const [index, part] of texts.entries()) {
          const answer = await ask(session, "submit_sm", {
            source_addr: settings.senderName.replace(/^\+/, ""),
            source_addr_ton: alphanumeric ? 5 : 1,
            source_addr_npi: alphanumeric ? 0 : 1,
            destination_addr: to.replace(/^\+/, ""),
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            registered_delivery: 1,
            data_coding: encoding === "UCS-2" ? 8 : 0,
            short_message:
              texts.length === 1
                ? part
                : { udh: Buffer.from([0x05, 0x00, 0x03, reference, texts.length, index + 1]), message: part },
          });
          if (answer.command_status !== 0) {
            const status = answer.command_status;
            throw new SmsSendError(`submit_sm: ${statusName(status)}`, PERMANENT.has(status), false);
          }
          ids.push(String(answer.message_id));
        }
        return ids;
      },
      close: () => (broken() ? Promise.resolve() : unbind(session)),
    };
    return sender;
  };
}
