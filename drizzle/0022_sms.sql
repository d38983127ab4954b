CREATE TABLE "order_lookups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_lookups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"phone" text NOT NULL,
	"client_address" text NOT NULL,
	"code_hash" text,
	"requested_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"wrong_codes" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp (3) with time zone,
	CONSTRAINT "order_lookups_wrong_codes_range" CHECK ("order_lookups"."wrong_codes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sms_days" (
	"day" date PRIMARY KEY NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	"limit_reached_at" timestamp (3) with time zone,
	CONSTRAINT "sms_days_parts_range" CHECK ("sms_days"."parts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sms_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"reason" text NOT NULL,
	"refund_id" bigint,
	"phone" text NOT NULL,
	"locale" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"provider_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"delivered_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"last_error" text,
	"accepted_at" timestamp (3) with time zone,
	"reported_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_outbox_refund" CHECK (("sms_outbox"."reason" = 'refunded') = ("sms_outbox"."refund_id" is not null)),
	CONSTRAINT "sms_outbox_reason_known" CHECK (reason in ('paid', 'cash_placed', 'cash_confirmed', 'packed', 'out_for_delivery', 'delivered', 'ready_for_pickup', 'picked_up', 'cancelled', 'refunded')),
	CONSTRAINT "sms_outbox_status_known" CHECK (status in ('pending', 'accepted', 'delivered', 'undelivered', 'failed')),
	CONSTRAINT "sms_outbox_attempts_range" CHECK ("sms_outbox"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sms_updates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD CONSTRAINT "sms_outbox_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD CONSTRAINT "sms_outbox_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_lookups_address_requested" ON "order_lookups" USING btree ("client_address","requested_at");--> statement-breakpoint
CREATE INDEX "order_lookups_phone_requested" ON "order_lookups" USING btree ("phone","requested_at");--> statement-breakpoint
CREATE INDEX "order_lookups_order_requested" ON "order_lookups" USING btree ("order_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_outbox_once" ON "sms_outbox" USING btree ("order_id","reason") WHERE "sms_outbox"."reason" <> 'refunded';--> statement-breakpoint
CREATE UNIQUE INDEX "sms_outbox_once_per_refund" ON "sms_outbox" USING btree ("refund_id") WHERE "sms_outbox"."reason" = 'refunded';--> statement-breakpoint
CREATE INDEX "sms_outbox_order" ON "sms_outbox" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "sms_outbox_failed" ON "sms_outbox" USING btree ("order_id") WHERE "sms_outbox"."status" in ('failed', 'undelivered');--> statement-breakpoint
CREATE INDEX "sms_outbox_due" ON "sms_outbox" USING btree ("next_attempt_at","id") WHERE "sms_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sms_outbox_provider_ids" ON "sms_outbox" USING gin ("provider_ids");