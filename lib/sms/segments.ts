import { SegmentedMessage } from "sms-segments-calculator";

/**
 * How a text message travels: GSM-7 (Latin, 160 characters in one part, 153 a part of a longer one; the extension
 * characters € { } [ ] ~ \ ^ | count two) or UCS-2 (anything else, Arabic among it: 70 in one part, 67 a part).
 * Each part is billed as one message, so a text is kept to as few parts as its language allows.
 */
export interface Segments {
  encoding: "GSM-7" | "UCS-2";
  /** The parts the network splits it into (1 or more; an empty text is one part). */
  parts: number;
  /** The text of each part, in order: what a sender puts in each concatenated `submit_sm`. */
  texts: string[];
}

/**
 * Splits a text into the parts an SMS network carries, counted by Twilio's segment calculator
 * (`sms-segments-calculator`), never splitting a character (or an emoji's grapheme) across parts.
 * @param text the message. @returns its encoding, part count and each part's text.
 */
export function segmentSms(text: string): Segments {
  const message = new SegmentedMessage(text, "auto");
  const texts = message.segments.map((segment) =>
    // A Segment is an Array subclass whose constructor adds header slots: copy it to a plain array before filtering.
    Array.from(segment)
      .filter((char): char is { raw: string } => typeof (char as { raw?: unknown }).raw === "string")
      .map((char) => char.raw)
      .join(""),
  );
  return { encoding: message.encodingName, parts: Math.max(1, message.segmentsCount), texts };
}
