CREATE TABLE "order_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text,
	"type" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"product_slug" text NOT NULL,
	"name" text NOT NULL,
	"unit_minor" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "order_lines_order_id_position_pk" PRIMARY KEY("order_id","position"),
	CONSTRAINT "order_lines_unit_minor_range" CHECK ("order_lines"."unit_minor" >= 0),
	CONSTRAINT "order_lines_quantity_positive" CHECK ("order_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"locale" text NOT NULL,
	"full_name" text,
	"email" text,
	"phone" text,
	"payment_gateway" text,
	"payment_token" text,
	"payment_url" text,
	"access_token_issued_at" timestamp with time zone,
	"claim_expires_at" timestamp with time zone NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_paymentToken_unique" UNIQUE("payment_token"),
	CONSTRAINT "orders_status_known" CHECK ("orders"."status" in ('started', 'failed', 'pending', 'paid', 'cancelled')),
	CONSTRAINT "orders_amount_minor_range" CHECK ("orders"."amount_minor" >= 0),
	CONSTRAINT "orders_payment_while_open" CHECK ("orders"."status" in ('started', 'failed') or "orders"."payment_token" is not null)
);
--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_at" ON "order_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_started_checkout" ON "orders" USING btree ("session_id","fingerprint") WHERE "orders"."status" = 'started';--> statement-breakpoint
CREATE INDEX "orders_session_created" ON "orders" USING btree ("session_id","created_at");