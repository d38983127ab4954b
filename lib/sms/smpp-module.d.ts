// The part of the `smpp` package (farhadi/node-smpp, which ships no types) that lib/sms/smpp.ts and
// scripts/sms-centre.ts use.
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer } from "node:net";

  /** A PDU: its fields are the SMPP parameters by their names in the specification. */
  export class PDU {
    constructor(command: string, options?: Record<string, unknown>);
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: Record<string, unknown>): PDU;
    isResponse(): boolean;
  }

  export interface Session extends EventEmitter {
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void): boolean;
    bind_transceiver(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    bind_transmitter(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    submit_sm(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    deliver_sm(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    unbind(options?: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function connect(options: { url: string; [option: string]: unknown }): Session;
  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;

  /** Command statuses by name (`ESME_RTHROTTLED`…) and the other constants. */
  export const errors: Record<string, number>;
}
