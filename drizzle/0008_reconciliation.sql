CREATE TABLE "payment_lists" (
	"id" text PRIMARY KEY NOT NULL,
	"created_by" text NOT NULL,
	"file_name" text,
	"content" text NOT NULL,
	"applied_at" timestamp (3) with time zone,
	"applied_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_reason_known";--> statement-breakpoint
CREATE INDEX "payment_lists_created" ON "payment_lists" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_reason_known" CHECK (reason in ('paid', 'amount_mismatch', 'unconfirmed_report', 'resend'));