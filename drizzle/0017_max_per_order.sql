ALTER TABLE "products" ADD COLUMN "max_per_order" integer;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_max_per_order_range" CHECK (max_per_order between 1 and 20);