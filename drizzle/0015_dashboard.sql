ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_gateway" text;--> statement-breakpoint
CREATE INDEX "email_outbox_failed" ON "email_outbox" USING btree ("order_id") WHERE "email_outbox"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "orders_paid_at" ON "orders" USING btree ("paid_at","amount_minor","paid_gateway") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_to_fulfil" ON "orders" USING btree ("paid_at","id") WHERE "orders"."status" = 'paid' and "orders"."fulfilled_at" is null;--> statement-breakpoint
-- Hand-written (not derived from lib/db/schema.ts): orders paid before `paid_at` existed get the time of the move that
-- made them paid, as lib/admin/orders.ts's paymentRecord reads it from their events (the verified delivery or the
-- merchant's mark whose `to` is paid); an order with no such event keeps its last change's time.
UPDATE "orders" SET "paid_at" = coalesce(
  (SELECT min(e."at") FROM "order_events" e
   WHERE e."order_id" = "orders"."id" AND e."data"->>'to' = 'paid' AND coalesce(e."data"->>'from', '') <> 'paid'
     AND (e."type" = 'marked_paid' OR (e."type" = 'webhook_received' AND e."data"->>'verified' = 'true'))),
  "orders"."updated_at")
WHERE "status" = 'paid' AND "paid_at" IS NULL;--> statement-breakpoint
-- Hand-written: the gateway the service named in the first verified delivery for the paid order (paidWith's rule).
UPDATE "orders" SET "paid_gateway" = (
  SELECT e."data"->>'gateway' FROM "order_events" e
  WHERE e."order_id" = "orders"."id" AND e."type" = 'webhook_received' AND e."data"->>'verified' = 'true'
    AND e."data"->>'to' = 'paid' AND jsonb_typeof(e."data"->'gateway') = 'string' AND e."data"->>'gateway' <> ''
  ORDER BY e."id" LIMIT 1)
WHERE "status" = 'paid' AND "paid_gateway" IS NULL;
