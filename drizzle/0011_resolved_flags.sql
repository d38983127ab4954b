DROP INDEX "orders_flagged_created";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "resolved_flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "needs_attention" boolean GENERATED ALWAYS AS (not (flags <@ resolved_flags)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_needing_attention_created" ON "orders" USING btree ("created_at","id") WHERE "orders"."needs_attention";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_resolved_flags_raised" CHECK ("orders"."resolved_flags" <@ "orders"."flags");--> statement-breakpoint
-- Hand-written (not derived from lib/db/schema.ts): orders marked paid by hand before flags could be resolved. Their
-- mark answered the same flags it resolves now (lib/orders/settle.ts, RESOLVED_BY_MARK), and its `marked_paid` event
-- says who and when; without this, every order marked paid before this version would stay "flagged" forever.
UPDATE "orders"
SET "resolved_flags" = ARRAY(
  SELECT unnest("flags") INTERSECT SELECT unnest(ARRAY['unconfirmed_report', 'paid_manually']::text[])
)
WHERE 'paid_manually' = ANY("flags") AND "resolved_flags" = '{}';
