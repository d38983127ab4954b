CREATE TABLE "email_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"recipient" text NOT NULL,
	"locale" text NOT NULL,
	"message_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"last_error" text,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_outbox_messageId_unique" UNIQUE("message_id"),
	CONSTRAINT "email_outbox_kind_known" CHECK (kind in ('receipt', 'merchant_notice')),
	CONSTRAINT "email_outbox_reason_known" CHECK (reason in ('paid', 'amount_mismatch', 'resend')),
	CONSTRAINT "email_outbox_status_known" CHECK (status in ('pending', 'sent', 'failed')),
	CONSTRAINT "email_outbox_attempts_range" CHECK ("email_outbox"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_once" ON "email_outbox" USING btree ("order_id","kind","reason") WHERE "email_outbox"."reason" <> 'resend';--> statement-breakpoint
CREATE INDEX "email_outbox_order" ON "email_outbox" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "email_outbox_due" ON "email_outbox" USING btree ("next_attempt_at","id") WHERE "email_outbox"."status" = 'pending';