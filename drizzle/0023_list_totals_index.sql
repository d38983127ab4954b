DROP INDEX "orders_status_created";--> statement-breakpoint
CREATE INDEX "orders_status_created" ON "orders" USING btree ("status","created_at","id","paid_at","amount_minor");