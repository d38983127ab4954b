import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Column } from "@react-email/column";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Preview } from "@react-email/preview";
import { Row } from "@react-email/row";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { CSSProperties, ReactNode } from "react";
import { BRAND } from "@/lib/brand";

/**
 * The frame and the parts the shop's e-mails are made of (React Email). Everything is inline styles and
 * tables, which every mail client reads; no image, web font or stylesheet is fetched from anywhere, so an e-mail looks
 * the same offline and tells nobody when it was opened. Right-to-left languages get `dir="rtl"` on every block and
 * explicit alignment, because several clients ignore the `<html>` element's direction.
 */

/** The system fonts the shop's pages use, Arabic ones included. */
const FONT =
  'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", Tahoma, Arial, sans-serif';

type Direction = "ltr" | "rtl";

const align = (dir: Direction, end = false): CSSProperties["textAlign"] => ((dir === "rtl") !== end ? "right" : "left");

/** What every e-mail of the shop says around its body, already in its reader's language. */
export interface EmailFrame {
  lang: string;
  dir: Direction;
  shopName: string;
  /** The line an inbox shows after the subject. */
  preview: string;
  heading: string;
  paragraphs: string[];
  footer: string;
}

/**
 * The page: language and direction, the inbox preview line, the shop's name on top, the e-mail's heading and
 * sentences, then `children`, and a footer.
 */
export function EmailLayout({
  lang,
  dir,
  preview,
  shopName,
  heading,
  paragraphs,
  footer,
  children,
}: EmailFrame & { children: ReactNode }) {
  return (
    <Html lang={lang} dir={dir}>
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{
          backgroundColor: BRAND.colors.paper,
          color: "#1c1917",
          fontFamily: FONT,
          margin: 0,
          padding: "24px 0",
        }}
      >
        <Container
          dir={dir}
          style={{
            backgroundColor: "#ffffff",
            border: "1px solid #e7e5e4",
            borderRadius: 12,
            maxWidth: 600,
            padding: "24px 28px",
            textAlign: align(dir),
          }}
        >
          <Text style={{ color: BRAND.colors.main, fontSize: 18, fontWeight: 700, margin: "0 0 16px" }}>
            {shopName}
          </Text>
          <Intro heading={heading} paragraphs={paragraphs} />
          {children}
          <Hr style={{ borderColor: "#e7e5e4", margin: "24px 0 12px" }} />
          <Text style={{ color: "#57534e", fontSize: 12, lineHeight: "18px", margin: 0 }}>{footer}</Text>
          <Text style={{ color: "#57534e", fontSize: 12, lineHeight: "18px", margin: "4px 0 0" }} dir="ltr">
            {BRAND.contact.email} · {BRAND.contact.phone}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/** The e-mail's heading and the sentences under it. */
function Intro({ heading, paragraphs }: { heading: string; paragraphs: string[] }) {
  return (
    <Section>
      <Heading as="h1" style={{ fontSize: 22, lineHeight: "28px", margin: "0 0 8px" }}>
        {heading}
      </Heading>
      {paragraphs.map((text) => (
        <Text key={text} style={{ fontSize: 15, lineHeight: "22px", margin: "0 0 8px" }}>
          {text}
        </Text>
      ))}
    </Section>
  );
}

/** A red box of things the reader must look at, each spelled out. */
export function Alert({ title, items, dir }: { title: string; items: string[]; dir: Direction }) {
  return (
    <Section
      dir={dir}
      data-testid="email-flags"
      style={{
        backgroundColor: "#fef2f2",
        border: "1px solid #fca5a5",
        borderRadius: 8,
        color: "#7f1d1d",
        margin: "12px 0",
        padding: "8px 16px",
      }}
    >
      <Text style={{ fontSize: 15, fontWeight: 700, margin: "4px 0" }}>{title}</Text>
      {items.map((item) => (
        <Text key={item} style={{ fontSize: 14, lineHeight: "20px", margin: "4px 0" }}>
          • {item}
        </Text>
      ))}
    </Section>
  );
}

/** Label and value pairs, one a row (the order number, the date, the customer…). */
export function Facts({ facts, dir }: { facts: [string, string][]; dir: Direction }) {
  return (
    <Section dir={dir} style={{ margin: "12px 0" }}>
      {facts.map(([label, value]) => (
        <Row key={label} dir={dir} data-text-format="dataTable">
          <Column style={{ color: "#57534e", fontSize: 14, padding: "2px 0", textAlign: align(dir), width: "40%" }}>
            {label}
          </Column>
          <Column dir="auto" style={{ fontSize: 14, padding: "2px 0", textAlign: align(dir) }}>
            {value}
          </Column>
        </Row>
      ))}
    </Section>
  );
}

/** One line of an order as sold: its name, quantity, unit price and line total, the prices already formatted. */
export interface EmailLine {
  name: string;
  quantity: number;
  unitPrice: string;
  total: string;
}

/**
 * The order's lines, each fee's own line when there is one (the delivery's, "Delivery — Benghazi"; the cash on
 * delivery fee), a promo code's discount ("Discount (EID10)"), and the total.
 */
export function Lines({
  dir,
  headings,
  lines,
  fees = [],
  totalLabel,
  total,
}: {
  dir: Direction;
  headings: { product: string; quantity: string; price: string; total: string };
  lines: EmailLine[];
  fees?: { label: string; amount: string }[];
  totalLabel: string;
  total: string;
}) {
  const cell: CSSProperties = { borderTop: "1px solid #e7e5e4", fontSize: 14, padding: "6px 4px" };
  const head: CSSProperties = { color: "#57534e", fontSize: 13, padding: "6px 4px" };
  const start = align(dir);
  const end = align(dir, true);
  return (
    <Section dir={dir} style={{ margin: "12px 0" }}>
      <Row dir={dir} data-text-format="dataTable">
        <Column style={{ ...head, textAlign: start }}>{headings.product}</Column>
        <Column style={{ ...head, textAlign: end, width: 56 }}>{headings.quantity}</Column>
        <Column style={{ ...head, textAlign: end, width: 110 }}>{headings.price}</Column>
        <Column style={{ ...head, textAlign: end, width: 110 }}>{headings.total}</Column>
      </Row>
      {lines.map((line, index) => (
        <Row key={index} dir={dir} data-testid="email-line" data-text-format="dataTable">
          <Column dir="auto" style={{ ...cell, textAlign: start }}>
            {line.name}
          </Column>
          <Column style={{ ...cell, textAlign: end }}>{line.quantity}</Column>
          <Column style={{ ...cell, textAlign: end, whiteSpace: "nowrap" }}>{line.unitPrice}</Column>
          <Column style={{ ...cell, textAlign: end, whiteSpace: "nowrap" }}>{line.total}</Column>
        </Row>
      ))}
      {fees.map((fee) => (
        <Row key={fee.label} dir={dir} data-testid="email-fee" data-text-format="dataTable">
          <Column dir="auto" style={{ ...cell, textAlign: start }}>
            {fee.label}
          </Column>
          <Column style={{ ...cell, textAlign: end, whiteSpace: "nowrap", width: 110 }}>{fee.amount}</Column>
        </Row>
      ))}
      <Row dir={dir} data-text-format="dataTable">
        <Column style={{ ...cell, borderTop: "2px solid #a8a29e", fontWeight: 700, textAlign: start }}>
          {totalLabel}
        </Column>
        <Column
          data-testid="email-total"
          style={{
            ...cell,
            borderTop: "2px solid #a8a29e",
            fontWeight: 700,
            textAlign: end,
            whiteSpace: "nowrap",
            width: 110,
          }}
        >
          {total}
        </Column>
      </Row>
    </Section>
  );
}

/** The one link of an e-mail, as a button, with a sentence about where it leads. */
export function Action({ href, label, note }: { href: string; label: string; note?: string }) {
  return (
    <Section style={{ margin: "16px 0 0" }}>
      <Button
        href={href}
        style={{
          backgroundColor: BRAND.colors.main,
          borderRadius: 8,
          color: "#ffffff",
          fontSize: 15,
          fontWeight: 600,
          padding: "10px 18px",
          textDecoration: "none",
        }}
      >
        {label}
      </Button>
      {note && <Text style={{ color: "#57534e", fontSize: 13, lineHeight: "19px", margin: "10px 0 0" }}>{note}</Text>}
    </Section>
  );
}
