CREATE TABLE "refund_lines" (
	"refund_id" bigint NOT NULL,
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "refund_lines_refund_id_position_pk" PRIMARY KEY("refund_id","position"),
	CONSTRAINT "refund_lines_quantity_positive" CHECK ("refund_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference" text,
	"cause" text NOT NULL,
	"return_id" bigint,
	"request_key" text,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"recorded_by" text,
	"recorded_at" timestamp (3) with time zone,
	CONSTRAINT "refunds_requestKey_unique" UNIQUE("request_key"),
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_minor" > 0),
	CONSTRAINT "refunds_status_known" CHECK (status in ('pending', 'refunded')),
	CONSTRAINT "refunds_cause_known" CHECK (cause in ('cancel', 'return', 'merchant')),
	CONSTRAINT "refunds_return_cause" CHECK (("refunds"."cause" = 'return') = ("refunds"."return_id" is not null)),
	CONSTRAINT "refunds_recorded" CHECK (("refunds"."status" = 'refunded') = ("refunds"."recorded_at" is not null) and ("refunds"."recorded_at" is null) = ("refunds"."recorded_by" is null) and ("refunds"."recorded_at" is null) = ("refunds"."reference" is null) and ("refunds"."reference" is null or btrim("refunds"."reference") <> ''))
);
--> statement-breakpoint
CREATE TABLE "return_lines" (
	"return_id" bigint NOT NULL,
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"quantity" integer NOT NULL,
	"restocked" boolean NOT NULL,
	CONSTRAINT "return_lines_return_id_position_pk" PRIMARY KEY("return_id","position"),
	CONSTRAINT "return_lines_quantity_positive" CHECK ("return_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "returns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"request_key" text NOT NULL,
	"created_by" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "returns_requestKey_unique" UNIQUE("request_key")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_reason_known";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_fulfilment_when_paid";--> statement-breakpoint
DROP INDEX "email_outbox_once";--> statement-breakpoint
DROP INDEX "orders_paid_at";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "refund_id" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_order_id_position_order_lines_order_id_position_fk" FOREIGN KEY ("order_id","position") REFERENCES "public"."order_lines"("order_id","position") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_order_id_position_order_lines_order_id_position_fk" FOREIGN KEY ("order_id","position") REFERENCES "public"."order_lines"("order_id","position") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_lines_order" ON "refund_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "refunds_order" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_pending" ON "refunds" USING btree ("created_at","id") WHERE "refunds"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "refunds_recorded" ON "refunds" USING btree ("recorded_at","amount_minor") WHERE "refunds"."status" = 'refunded';--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_per_cancel" ON "refunds" USING btree ("order_id") WHERE "refunds"."cause" = 'cancel';--> statement-breakpoint
CREATE INDEX "return_lines_order" ON "return_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "returns_order" ON "returns" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_once_per_refund" ON "email_outbox" USING btree ("refund_id","kind") WHERE "email_outbox"."reason" = 'refunded';--> statement-breakpoint
CREATE INDEX "orders_refunded_created" ON "orders" USING btree ("created_at","id") WHERE "orders"."refunded_minor" > 0;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_once" ON "email_outbox" USING btree ("order_id","kind","reason") WHERE "email_outbox"."reason" not in ('resend', 'refunded');--> statement-breakpoint
CREATE INDEX "orders_paid_at" ON "orders" USING btree ("paid_at","amount_minor","paid_gateway","payment_method") WHERE "orders"."paid_at" is not null;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_refund" CHECK (("email_outbox"."reason" = 'refunded') = ("email_outbox"."refund_id" is not null));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK (kind in ('receipt', 'merchant_notice', 'fulfilment_update', 'after_sale'));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_reason_known" CHECK (reason in ('paid', 'amount_mismatch', 'unconfirmed_report', 'resend', 'packed', 'out_for_delivery', 'delivered', 'ready_for_pickup', 'picked_up', 'cash_placed', 'cancelled', 'refunded'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cancelled_by_merchant" CHECK ((cancelled_at is null) = (cancel_reason is null) and (cancelled_at is null or status = 'cancelled') and (cancel_reason is null or cancel_reason in ('customer_asked', 'out_of_stock', 'suspected_fraud', 'unreachable', 'other')));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_range" CHECK ("orders"."refunded_minor" >= 0 and "orders"."refunded_minor" <= case when "orders"."payment_method" = 'cash' then coalesce("orders"."collected_minor", 0) when "orders"."paid_at" is not null then "orders"."amount_minor" else 0 end);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfilment_when_paid" CHECK ("orders"."fulfilment" is null or "orders"."status" = 'paid' or ("orders"."payment_method" = 'cash' and "orders"."status" in ('confirmed', 'cancelled')) or "orders"."cancelled_at" is not null);