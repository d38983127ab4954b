ALTER TABLE "orders" ADD COLUMN "payment_expires_at" timestamp (3) with time zone;--> statement-breakpoint
-- Hand-written: every payment made so far had the service's 600-second access token.
UPDATE "orders" SET "payment_expires_at" = "access_token_issued_at" + interval '600 seconds' WHERE "access_token_issued_at" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "orders_open_payments";--> statement-breakpoint
CREATE INDEX "orders_open_payments" ON "orders" USING btree ("payment_expires_at") WHERE "orders"."status" in ('pending', 'awaiting_confirmation');--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "access_token_issued_at";
