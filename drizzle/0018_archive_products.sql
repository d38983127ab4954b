ALTER TABLE "catalog_events" DROP CONSTRAINT "catalog_events_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "archived_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_archived_hidden" CHECK ("products"."archived_at" is null or not "products"."visible");