CREATE TABLE "promo_code_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_code_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code_id" bigint NOT NULL,
	"type" text NOT NULL,
	"by" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_code_misses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_code_misses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_address" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_minor" integer,
	"min_lines_minor" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_code_form" CHECK ("promo_codes"."code" ~ '^[A-Z0-9]{2,32}$'),
	CONSTRAINT "promo_codes_kind_known" CHECK (kind in ('percent', 'amount', 'free_delivery')),
	CONSTRAINT "promo_codes_value" CHECK ((kind = 'percent' and percent between 1 and 100 and amount_minor is null) or (kind = 'amount' and amount_minor > 0 and amount_minor <= 100000000 and percent is null) or (kind = 'free_delivery' and percent is null and amount_minor is null)),
	CONSTRAINT "promo_codes_min_lines_range" CHECK (min_lines_minor >= 0 and min_lines_minor <= 100000000),
	CONSTRAINT "promo_codes_dates" CHECK ("promo_codes"."starts_at" is null or "promo_codes"."ends_at" is null or "promo_codes"."starts_at" < "promo_codes"."ends_at"),
	CONSTRAINT "promo_codes_limits" CHECK (("promo_codes"."max_uses" is null or "promo_codes"."max_uses" >= 1) and ("promo_codes"."max_uses_per_customer" is null or "promo_codes"."max_uses_per_customer" >= 1))
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_cash_fee_range";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_delivery_fee_range";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code_id" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promo_code_events" ADD CONSTRAINT "promo_code_events_code_id_promo_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."promo_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promo_code_events_code_at" ON "promo_code_events" USING btree ("code_id","at");--> statement-breakpoint
CREATE INDEX "promo_code_misses_address_at" ON "promo_code_misses" USING btree ("client_address","at");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code" ON "promo_codes" USING btree ("code");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_promo_code" ON "orders" USING btree ("promo_code_id","status") WHERE "orders"."promo_code_id" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount" CHECK ("orders"."discount_minor" >= 0 and ("orders"."promo_code_id" is null) = ("orders"."promo_code" is null) and ("orders"."promo_code" is not null or "orders"."discount_minor" = 0));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cash_fee_range" CHECK ("orders"."cash_fee_minor" >= 0 and ("orders"."payment_method" = 'cash' or "orders"."cash_fee_minor" = 0) and "orders"."cash_fee_minor" + "orders"."delivery_fee_minor" <= "orders"."amount_minor" + "orders"."discount_minor");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_fee_range" CHECK ("orders"."delivery_fee_minor" >= 0 and ("orders"."delivery_method" is not distinct from 'delivery' or "orders"."delivery_fee_minor" = 0) and "orders"."delivery_fee_minor" <= "orders"."amount_minor" + "orders"."discount_minor");--> statement-breakpoint
-- Hand-written: the promo codes' audit is append-only, like delivery's (0014).
CREATE FUNCTION promo_code_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'promo_code_events is append-only: % is not allowed', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER promo_code_events_append_only BEFORE UPDATE OR DELETE ON promo_code_events
  FOR EACH ROW EXECUTE FUNCTION promo_code_events_append_only();
