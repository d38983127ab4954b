CREATE TABLE "delivery_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"zone_id" bigint,
	"type" text NOT NULL,
	"by" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_zones" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_zones_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name_en" text NOT NULL,
	"name_ar" text NOT NULL,
	"fee_minor" integer NOT NULL,
	"free_above_minor" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_zones_fee_range" CHECK (fee_minor >= 0 and fee_minor <= 100000000),
	CONSTRAINT "delivery_zones_free_above_range" CHECK (free_above_minor is null or (free_above_minor > 0 and free_above_minor <= 100000000))
);
--> statement-breakpoint
CREATE TABLE "store_pickup" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"address_en" text DEFAULT '' NOT NULL,
	"address_ar" text DEFAULT '' NOT NULL,
	"hours_en" text DEFAULT '' NOT NULL,
	"hours_ar" text DEFAULT '' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_pickup_one_row" CHECK ("store_pickup"."id" = 1),
	CONSTRAINT "store_pickup_address_when_enabled" CHECK (not "store_pickup"."enabled" or ("store_pickup"."address_en" <> '' and "store_pickup"."address_ar" <> ''))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_reason_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_method" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_zone_id" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_city_en" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_city_ar" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_landmark" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "second_phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_fee_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilment" text;--> statement-breakpoint
ALTER TABLE "delivery_events" ADD CONSTRAINT "delivery_events_zone_id_delivery_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."delivery_zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_events_at" ON "delivery_events" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_zones_name_en" ON "delivery_zones" USING btree (lower("name_en"));--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_zones_name_ar" ON "delivery_zones" USING btree ("name_ar");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_zone_id_delivery_zones_id_fk" FOREIGN KEY ("delivery_zone_id") REFERENCES "public"."delivery_zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK (kind in ('receipt', 'merchant_notice', 'fulfilment_update'));--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_reason_known" CHECK (reason in ('paid', 'amount_mismatch', 'unconfirmed_report', 'resend', 'packed', 'out_for_delivery', 'delivered', 'ready_for_pickup', 'picked_up'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_method_known" CHECK (delivery_method in ('delivery', 'pickup'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_complete" CHECK ("orders"."delivery_method" is distinct from 'delivery' or ("orders"."delivery_zone_id" is not null and "orders"."delivery_city_en" is not null and "orders"."delivery_city_ar" is not null and "orders"."delivery_address" is not null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_fee_range" CHECK ("orders"."delivery_fee_minor" >= 0 and ("orders"."delivery_method" is not distinct from 'delivery' or "orders"."delivery_fee_minor" = 0) and "orders"."delivery_fee_minor" <= "orders"."amount_minor");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfilment_known" CHECK (fulfilment in ('packed', 'out_for_delivery', 'delivered', 'ready_for_pickup', 'picked_up', 'fulfilled'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_fulfilment_when_paid" CHECK ("orders"."fulfilment" is null or "orders"."status" = 'paid');--> statement-breakpoint
-- Hand-written: delivery's audit is append-only, like the order history (0001) and the catalogue's (0012).
CREATE FUNCTION delivery_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'delivery_events is append-only: % is not allowed', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER delivery_events_append_only BEFORE UPDATE OR DELETE ON delivery_events
  FOR EACH ROW EXECUTE FUNCTION delivery_events_append_only();
--> statement-breakpoint
-- Hand-written: Libya's main cities, in the order the checkout lists them. The fees are a starting point for the
-- merchant to set in the back office (Delivery): about 10 LYD in Tripoli, more the further from it.
INSERT INTO delivery_zones (name_en, name_ar, fee_minor, sort_order) VALUES
  ('Tripoli', 'طرابلس', 1000, 10),
  ('Benghazi', 'بنغازي', 3500, 20),
  ('Misrata', 'مصراتة', 2000, 30),
  ('Zawiya', 'الزاوية', 1500, 40),
  ('Zliten', 'زليتن', 2000, 50),
  ('Khoms', 'الخمس', 1500, 60),
  ('Gharyan', 'غريان', 1500, 70),
  ('Zuwara', 'زوارة', 2000, 80),
  ('Sabratha', 'صبراتة', 1500, 90),
  ('Sirte', 'سرت', 3000, 100),
  ('Ajdabiya', 'أجدابيا', 3500, 110),
  ('Bayda', 'البيضاء', 4000, 120),
  ('Marj', 'المرج', 4000, 130),
  ('Derna', 'درنة', 4000, 140),
  ('Tobruk', 'طبرق', 4500, 150),
  ('Sabha', 'سبها', 4500, 160),
  ('Bani Walid', 'بني وليد', 2000, 170),
  ('Tarhuna', 'ترهونة', 1500, 180),
  ('Kufra', 'الكفرة', 6000, 190),
  ('Ubari', 'أوباري', 5000, 200);
--> statement-breakpoint
-- Hand-written: pickup's one row, off until the merchant gives the shop's address.
INSERT INTO store_pickup (id) VALUES (1);
--> statement-breakpoint
-- Hand-written: orders fulfilled before the steps existed were simply `fulfilled`.
UPDATE orders SET fulfilment = 'fulfilled' WHERE fulfilled_at IS NOT NULL;
