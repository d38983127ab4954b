ALTER TABLE "orders" DROP CONSTRAINT "orders_status_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_open_payments" ON "orders" USING btree ("access_token_issued_at") WHERE "orders"."status" in ('pending', 'awaiting_confirmation');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK (status in ('started', 'failed', 'pending', 'awaiting_confirmation', 'paid', 'cancelled', 'expired'));--> statement-breakpoint
-- Until now `paid` meant "the customer's browser came back with success"; from now on it means "the payment service
-- confirmed it". Orders marked paid by the browser alone are only reported.
UPDATE "orders" SET "status" = 'awaiting_confirmation', "customer_returned_at" = "updated_at" WHERE "status" = 'paid';
