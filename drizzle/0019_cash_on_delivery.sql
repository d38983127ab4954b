CREATE TABLE "cash_blocked_phones" (
	"phone" text PRIMARY KEY NOT NULL,
	"blocked_by" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"blocked_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cash_on_delivery" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"at_pickup" boolean DEFAULT false NOT NULL,
	"max_total_minor" integer,
	"fee_minor" integer DEFAULT 0 NOT NULL,
	"confirm_within_hours" integer DEFAULT 48 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_on_delivery_one_row" CHECK ("cash_on_delivery"."id" = 1),
	CONSTRAINT "cash_on_delivery_fee_range" CHECK (fee_minor >= 0 and fee_minor <= 100000000),
	CONSTRAINT "cash_on_delivery_max_total_range" CHECK (max_total_minor is null or (max_total_minor > 0 and max_total_minor <= 100000000)),
	CONSTRAINT "cash_on_delivery_confirm_within_range" CHECK ("cash_on_delivery"."confirm_within_hours" between 1 and 720)
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_reason_known";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_known";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_while_open";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_method_known";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_fulfilment_known";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_fulfilment_when_paid";--> statement-breakpoint
DROP INDEX "orders_paid_at";--> statement-breakpoint
ALTER TABLE "delivery_zones" ADD COLUMN "cash_on_delivery" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cash_fee_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "confirm_by" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_minor" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_by" text;--> statement-breakpoint
CREATE INDEX "orders_cash_to_confirm" ON "orders" USING btree ("confirm_by") WHERE "orders"."status" = 'placed';--> statement-breakpoint
CREATE INDEX "orders_cash_placed_phone" ON "orders" USING btree ("phone") WHERE "orders"."status" = 'placed';--> statement-breakpoint
CREATE INDEX "orders_cash_confirmed" ON "orders" USING btree ("created_at","id") WHERE "orders"."status" = 'confirmed';--> statement-breakpoint
CREATE INDEX "orders_paid_at" ON "orders" USING btree ("paid_at","amount_minor","paid_gateway","payment_method") WHERE "orders"."status" = 'paid';--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_reason_known" CHECK (reason in ('paid', 'amount_mismatch', 'unconfirmed_report', 'resend', 'packed', 'out_for_delivery', 'delivered', 'ready_for_pickup', 'picked_up', 'cash_placed'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cash_never_on_the_service" CHECK ("orders"."payment_method" <> 'cash' or ("orders"."payment_token" is null and "orders"."payment_url" is null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cash_statuses" CHECK ("orders"."status" not in ('placed', 'confirmed') or "orders"."payment_method" = 'cash');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_placed_has_deadline" CHECK ("orders"."status" <> 'placed' or "orders"."confirm_by" is not null);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cash_fee_range" CHECK ("orders"."cash_fee_minor" >= 0 and ("orders"."payment_method" = 'cash' or "orders"."cash_fee_minor" = 0) and "orders"."cash_fee_minor" + "orders"."delivery_fee_minor" <= "orders"."amount_minor");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_collected" CHECK (("orders"."collected_minor" is null) = ("orders"."collected_by" is null) and ("orders"."collected_minor" is null or ("orders"."payment_method" = 'cash' and "orders"."collected_minor" >= 0)) and ("orders"."payment_method" <> 'cash' or ("orders"."status" = 'paid') = ("orders"."collected_minor" is not null)));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK (status in ('started', 'failed', 'pending', 'awaiting_confirmation', 'paid', 'cancelled', 'expired', 'placed', 'confirmed'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_while_open" CHECK ("orders"."payment_method" <> 'online' or "orders"."status" in ('started', 'failed') or "orders"."payment_token" is not null);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method_known" CHECK (payment_method in ('online', 'cash'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfilment_known" CHECK (fulfilment in ('packed', 'out_for_delivery', 'delivered', 'ready_for_pickup', 'picked_up', 'fulfilled', 'delivery_failed', 'returned'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfilment_when_paid" CHECK ("orders"."fulfilment" is null or "orders"."status" = 'paid' or ("orders"."payment_method" = 'cash' and "orders"."status" in ('confirmed', 'cancelled')));--> statement-breakpoint
INSERT INTO cash_on_delivery (id) VALUES (1);
