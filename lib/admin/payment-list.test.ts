import { describe, expect, it } from "vitest";
import { MAX_LIST_ROWS, parseListedDay, readPaymentList, type ListedPayment } from "./payment-list";

/** The merchant dashboard's list as merchants paste or save it: every way the module's comment promises to read. */

const ORDER = "ord_0123456789abcdef";
const payment = (overrides: Partial<ListedPayment> = {}): ListedPayment => ({
  row: 2,
  paymentToken: "tok-1",
  orderId: null,
  amountMinor: 10375,
  reference: "TXN-1",
  day: null,
  notCompleted: null,
  ...overrides,
});

describe("reading a list", () => {
  it.each([
    ["commas", "token,amount,reference\ntok-1,103.75,TXN-1\n"],
    ["semicolons and a decimal comma", "token;amount;reference\ntok-1;103,75;TXN-1\n"],
    ["tabs", "token\tamount\treference\ntok-1\t103.75\tTXN-1\n"],
    ["a byte order mark and Windows line ends", "\uFEFFtoken,amount,reference\r\ntok-1,103.75,TXN-1\r\n"],
    ["a quoted decimal comma among commas", 'token,amount,reference\ntok-1,"103,75",TXN-1\n'],
    [
      "headers in another case and order, and extra columns",
      "Customer,REFERENCE,Amount (LYD),Payment Token\nAisha,TXN-1,103.75,tok-1\n",
    ],
    ["Arabic headers", "رمز الدفع;المبلغ;المرجع\ntok-1;103,75;TXN-1\n"],
    ["Arabic headers written with other letter forms", "رمز الدفع,المبلغ (د.ل),مرجع العمليّة\ntok-1,103.75,TXN-1\n"],
    ["no header: token, amount, reference", "tok-1,103.75,TXN-1\n"],
    ["blank lines and padding", "\ntoken , amount , reference\n  tok-1 ,  103.75 , TXN-1  \n\n"],
    ["spreadsheet text guards", 'token,amount,reference\n="tok-1",103.75,\'=TXN-1\n'],
  ])("reads %s", (_name, text) => {
    const list = readPaymentList(text);
    expect(list.problems).toEqual([]);
    expect(list.payments).toHaveLength(1);
    const [read] = list.payments;
    expect({ ...read, row: 2, reference: read!.reference.replace(/^=/, "") }).toEqual(payment());
  });

  it("numbers rows as a spreadsheet does, blank lines included", () => {
    const list = readPaymentList("token,amount,reference\n\ntok-1,1,A\ntok-2,2,B\n");
    expect(list.payments.map((p) => p.row)).toEqual([3, 4]);
  });

  it("reads an order number instead of a token, in its own column or by its shape without a header", () => {
    expect(readPaymentList(`Order number,Amount,Reference\n${ORDER.toUpperCase()},103.75,TXN-1`).payments).toEqual([
      payment({ paymentToken: null, orderId: ORDER }),
    ]);
    expect(readPaymentList(`${ORDER},103.75,TXN-1`).payments).toEqual([
      payment({ row: 1, paymentToken: null, orderId: ORDER }),
    ]);
    expect(
      readPaymentList(`token,order,amount,reference\ntok-1,${ORDER},103.75,TXN-1\n,${ORDER},1,TXN-2`).payments,
    ).toEqual([
      payment({ orderId: ORDER }),
      payment({ row: 3, paymentToken: null, orderId: ORDER, amountMinor: 100, reference: "TXN-2" }),
    ]);
  });

  it("keeps the merchant's day of each payment, and says whether the list has dates", () => {
    const list = readPaymentList(
      "token,amount,reference,date\na,1,A,2025-03-04\nb,1,B,04/03/2025 23:59\nc,1,C,2025-03-04T23:30:00Z\nd,1,D,",
    );
    expect(list.problems).toEqual([]);
    expect(list.hasDates).toBe(true);
    // 23:30 UTC is 01:30 the next morning in Tripoli.
    expect(list.payments.map((p) => p.day)).toEqual(["2025-03-04", "2025-03-04", "2025-03-05", null]);
    expect(readPaymentList("token,amount,reference\na,1,A").hasDates).toBe(false);
  });

  it("reads a date column month first when one of its dates only makes sense that way", () => {
    const list = readPaymentList("token,amount,reference,date\na,1,A,03/04/2025\nb,1,B,03/25/2025");
    expect(list.payments.map((p) => p.day)).toEqual(["2025-03-04", "2025-03-25"]);
  });

  it("with a status column, marks the payments that are not completed, in either language", () => {
    const list = readPaymentList(
      "token,amount,reference,status\na,1,A,Success\nb,1,B,مدفوعة\nc,1,C,Declined\nd,1,D,فشلت\ne,1,E,",
    );
    expect(list.payments.map((p) => p.notCompleted)).toEqual([null, null, "Declined", "فشلت", "—"]);
  });

  it("accepts a currency column in dinars", () => {
    expect(readPaymentList("token,amount,currency,reference\na,1,LYD,A\nb,1,د.ل,B\nc,1,,C").problems).toEqual([]);
  });
});

describe("what is wrong, by row and column", () => {
  it("names the row, the column's letter and header, and the value", () => {
    const list = readPaymentList(
      [
        "Payment token;Amount;Reference;Date;Currency",
        "tok-1;103,75;TXN-1;04/03/2025;LYD",
        "tok-2;12.5.0;TXN-2;04/03/2025;LYD",
        ";10;TXN-3;04/03/2025;LYD",
        "tok-4;10;;31/02/2025;USD",
        "tok-5;1,234;TXN-5;yesterday;LYD",
        "tok-6;-5.00;TXN-6;2025-03-04;LYD",
        "tok-7;1,234.567;TXN-7;2025-03-04;LYD",
      ].join("\n"),
    );
    expect(list.payments.map((p) => p.paymentToken)).toEqual(["tok-1"]);
    const cell = (row: number, letter: string, column: string, value: string, problem: string) => ({
      code: "cell",
      row,
      letter,
      column,
      value,
      problem,
    });
    expect(list.problems).toEqual([
      cell(3, "B", "Amount", "12.5.0", "amount"),
      cell(4, "A", "Payment token", "", "missing"),
      cell(5, "C", "Reference", "", "missing"),
      cell(5, "D", "Date", "31/02/2025", "date"),
      cell(5, "E", "Currency", "USD", "currency"),
      cell(6, "B", "Amount", "1,234", "amount_ambiguous"),
      cell(6, "D", "Date", "yesterday", "date"),
      cell(7, "B", "Amount", "-5.00", "amount_negative"),
      cell(8, "B", "Amount", "1,234.567", "amount_decimals"),
    ]);
  });

  it("names an order number that is not one, and a column beyond Z by its letters", () => {
    const header = [...Array.from({ length: 26 }, (_, i) => `x${i}`), "order", "amount", "reference"].join(",");
    const row = [...Array.from({ length: 26 }, () => ""), "order-1001", "1", "A"].join(",");
    expect(readPaymentList(`${header}\n${row}`).problems).toEqual([
      { code: "cell", row: 2, letter: "AA", column: "order", value: "order-1001", problem: "order_id" },
    ]);
  });

  it("without a header, names the column by its letter alone", () => {
    expect(readPaymentList("tok-1,lots,TXN-1").problems).toEqual([
      { code: "cell", row: 1, letter: "B", column: "", value: "lots", problem: "amount" },
    ]);
  });

  it.each([
    ["no payment column", "customer,amount,reference\nAisha,1,A", ["payment"]],
    ["no amount or reference", "token,customer\na,Aisha", ["amount", "reference"]],
  ])("names each missing column: %s", (_name, text, columns) => {
    expect(readPaymentList(text).problems).toEqual(columns.map((column) => ({ code: "missing_column", column })));
  });

  it("says where the list itself breaks, and when it is empty or too long", () => {
    expect(readPaymentList('token,amount,reference\na,1,A\n"b,1,B\nc,1,C').problems).toEqual([
      { code: "unreadable", row: 3 },
    ]);
    expect(readPaymentList(" \n\n").problems).toEqual([{ code: "empty" }]);
    expect(readPaymentList("token,amount,reference\n").problems).toEqual([{ code: "empty" }]);
    const long = `token,amount,reference\n${"a,1,A\n".repeat(MAX_LIST_ROWS + 1)}`;
    expect(readPaymentList(long).problems).toEqual([{ code: "too_many_rows", max: MAX_LIST_ROWS }]);
  });
});

describe("dates", () => {
  it.each([
    ["2025-03-04", "2025-03-04"],
    ["2025/3/4", "2025-03-04"],
    ["4/3/2025", "2025-03-04"],
    ["04.03.2025 14:20", "2025-03-04"],
    ["04-03-2025 2:20 PM", "2025-03-04"],
    ["٠٤/٠٣/٢٠٢٥", "2025-03-04"],
    ["2025-03-04T21:59:59Z", "2025-03-04"],
    ["2025-03-04T22:00:00Z", "2025-03-05"],
    ["2025-03-04 23:00:00+0100", "2025-03-05"],
  ])("reads %j as the merchant's day %s", (text, day) => {
    expect(parseListedDay(text)).toBe(day);
  });

  it.each(["yesterday", "2025-02-30", "32/01/2025", "2025-03-04 noon", "04/03/25"])("refuses %j", (text) => {
    expect(parseListedDay(text)).toBeNull();
  });
});
